"""Answers to a sender: the rejection naming every problem, the receipt echoing the
normalised orders (with what changed since the seat's previous submission), and the
alert to a seat whose key came from another address."""
from __future__ import annotations

import difflib
import gettext
import hashlib
import re
from dataclasses import replace
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import yaml

from pbem import i18n, problem_texts
from pbem.mail.headers import fold_address
from pbem.mail.message import ParsedMail
from pbem.pack import names as pack_names
from pbem.problems import Problem, grouped
from pbem.report import build, orders_text
from pbem.rules.core.names import card_label
from pbem.service.base.context import Service
from pbem.service.base.settings import host_of
from pbem.service.base.text import mask_key_lines, re_subject
from pbem.service.outgoing import host_notices, outbox, ratelimit, seat_preferences

#: rec(status, reason="", **fields) -> inbox id: records the mail being handled
Recorder = Callable[..., int]


def answer_key(parsed: ParsedMail) -> tuple[str, ...]:
    """What an answer's stable Message-ID (RFC 5322 3.6.4) derives from: the incoming
    Message-ID *and* the content hash of the mail (break-it finding 4: a different mail
    reusing a known Message-ID used to get the earlier answer's id, so the outbox took
    its answer for queued already and it was never sent). The same bytes fetched again
    give the same id, so a crash and replay still queues the answer once."""
    return (parsed.message_id, parsed.content) if parsed.content else (parsed.message_id,)


Note = str | tuple[str, Mapping[str, Any]]
"""A line after the problems of a rejection: a text as it is, or a message (an English
msgid, marked with :func:`pbem.i18n.N_`) and its values, translated for the sender
(issue 28). A ``kind`` value that is a decision kind is said in words
(:func:`pbem.report.build.decision_text`)."""


def note_text(note: Note | None, tr: gettext.NullTranslations) -> str | None:
    """``note`` in the language of ``tr`` (:data:`Note`)."""
    if note is None or isinstance(note, str):
        return note
    message, values = note
    values = {k: build.decision_text(v, tr) if k == "kind" else v for k, v in values.items()}
    return tr.gettext(message) % values if values else tr.gettext(message)


#: the most of the sender's orders text a rejection quotes back (break-it finding 5: up
#: to 100 KB were echoed to any address, a relay for spam)
ECHO_CHARS = 2000
#: the most problems a rejection lists, and characters of each of their texts
MAX_PROBLEMS = 20
PROBLEM_CHARS = 300


def capped_echo(text: str, limit: int = ECHO_CHARS) -> str:
    """``text`` cut to ``limit`` characters, with a line saying how much was left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({len(text) - limit:,} more characters of your mail not shown)\n"


def capped_problems(issues: Sequence[Problem], tr: gettext.NullTranslations | None = None
                    ) -> list[dict[str, Any]]:
    """The problems as dicts for the rejection: at most :data:`MAX_PROBLEMS`, each text
    cut to :data:`PROBLEM_CHARS` (they may quote the mail), and a last one counting the
    rest, in the language of ``tr`` (None: English)."""
    def cut(value: Any) -> Any:
        return value[:PROBLEM_CHARS] + "…" if isinstance(value, str) and len(value) > PROBLEM_CHARS else value
    shown = [{k: cut(v) for k, v in i.to_dict().items()} for i in issues[:MAX_PROBLEMS]]
    if len(issues) > MAX_PROBLEMS:
        ngettext, rest = i18n.ngettext_of(tr), len(issues) - MAX_PROBLEMS
        shown.append(Problem(code=issues[MAX_PROBLEMS].code,
                             message=ngettext("… and %(num)d more problem not shown.",
                                              "… and %(num)d more problems not shown.", rest) % {"num": rest}).to_dict())
    return shown


def reply(judge: Service, parsed: ParsedMail, issues: Sequence[Problem], game_id: str | None,
          orders_text: str | None = None, note: Note | None = None, inbox_id: int | None = None,
          urgent: bool = False, language: str | None = None) -> bool:
    """Answer a sender with every problem found, repeats merged
    (:func:`pbem.problems.grouped`), and ``note`` after them, as the limits on answers
    allow (:func:`pbem.service.outgoing.ratelimit.deliver`: a seat past its hourly limit gets it
    in a digest unless ``urgent``, a real refusal to its own address, one in 5 minutes;
    ``inbox_id`` is marked when the answer does not go on its own); False when the answer
    was dropped (a stranger past the limits). ``language``: the sender's language when
    the caller knows it (the host of a sign-up game: its ``host_language``, issue 28
    lang28f item 1), else it is looked up from the game or the address."""
    if not parsed.sender:
        return False
    tr = seat_preferences.translations_at(judge.store, game_id, parsed.sender)  # a seat's own language (issue 28)
    if language is not None:
        tr = i18n.translations(language)
    elif not game_id:  # no game named (try28: a Russian seat's mail without `game:` was answered in English):
        tr = seat_preferences.address_translations(judge.store, parsed.sender)  # the address's seat in any game
        if i18n.language_of(tr) == i18n.DEFAULT:
            tr = i18n.translations(host_notices.host_language(judge, parsed.sender))  # or the host's language
    if game_id and judge.store.game(game_id) is not None and not judge.store.seat_at(game_id, fold_address(
            parsed.sender)) and fold_address(host_of(judge, game_id) or "") == fold_address(parsed.sender):
        tr = host_notices.host_translations(judge, game_id)  # a host command's refusal: the host's language
    language = i18n.language_of(tr)
    pack = judge.pack_for(game_id) if game_id and judge.store.game(game_id) is not None else None
    name_of = (lambda name: pack_names.shown_name(pack, language, name)) if pack is not None else None
    # by code in es/ru, a suggested name in the seat's language with the canonical one, the cards a
    # check names (the hand) in the seat's language (issue 28)
    grouped_issues = [_cards_in_language(p, pack, tr) for p in grouped(issues)] if pack is not None and \
        language != i18n.DEFAULT else grouped(issues)
    local = pack_names.localized(pack, language) if pack is not None else None
    card_of = (lambda n: card_label(local, n, tr)) if local is not None else None  # the hand as the seat reads it
    shown = [problem_texts.localized(p, tr, name_of, card_of) for p in grouped_issues]
    text = build.render_rejection(parsed.subject, capped_problems(shown, tr), game_id,
                                  capped_echo(mask_key_lines(orders_text)) if orders_text else None,
                                  note=note_text(note, tr), tr=tr)
    return ratelimit.deliver(judge, parsed, inbox_id, language=language, game_id=game_id,
                             subject=re_subject(parsed.subject),
                             text=text, html_title=tr.gettext("Orders not applied"),
                             id_parts=(game_id or "judge", "reply", *answer_key(parsed)), urgent=urgent)


def _cards_in_language(p: Problem, pack: Any, tr: gettext.NullTranslations) -> Problem:
    """``p`` with every card label in its params (``#18 Drink the Hemlock (3 OPs)``, as
    the rules core writes a hand) as the reader of ``tr`` reads it (issue 28)."""
    if not p.params or not any(isinstance(v, str) and "#" in v for v in p.params.values()):
        return p
    local = pack_names.localized(pack, i18n.language_of(tr))
    labels = {card_label(pack, n): card_label(local, n, tr) for n in pack.cards}
    pattern = re.compile("|".join(re.escape(x) for x in sorted(labels, key=len, reverse=True)))
    params = {k: pattern.sub(lambda m: labels[m.group(0)], v) if isinstance(v, str) else v
              for k, v in p.params.items()}
    return replace(p, params=params)


def reject(judge: Service, parsed: ParsedMail, rec: Recorder, issues: Sequence[Problem], game_id: str | None,
           seat: str | None, result: Mapping[str, Any], status: str = "rejected", reason: str = "",
           note: Note | None = None, language: str | None = None, **fields: Any) -> str:
    """Record a mail that is not applied (``status`` rejected or held, with every
    problem; ``reason`` defaults to the first problem's code) and answer the sender
    (``note`` after the problems; in ``language`` when given, see :func:`reply`);
    nothing in the game changes. Returns ``status``."""
    iid = rec(status, reason or issues[0].code, game_id=game_id, seat=seat,
              result={**result, "problems": [i.to_dict() for i in issues]}, **fields)
    reply(judge, parsed, issues, game_id, orders_text=parsed.orders_text, note=note, inbox_id=iid,
          urgent=status == "rejected" and from_the_seat(judge, game_id, seat, parsed.sender), language=language)
    return status


def from_the_seat(judge: Service, game_id: str | None, seat: str | None, sender: str | None) -> bool:
    """Whether ``sender`` is the registered address of ``seat`` in ``game_id`` (issue 24
    B/N2: a refusal to it is sent at once past the hourly limit on answers)."""
    if not game_id or not seat or not sender:
        return False
    row = next((r for r in judge.store.seats(game_id) if r["seat"] == seat), None)
    return row is not None and bool(row["email"]) and fold_address(row["email"]) == fold_address(sender)


def receipt(judge: Service, parsed: ParsedMail, game_id: str, seat: str, step: int, orders: Mapping[str, Any],
            previous: Mapping[str, Any] | None = None, note: str | None = None, hand: Sequence[int] = (),
            logged: str | None = None, witness: str | None = None, partly: Sequence[str] = ()) -> None:
    """Queue the receipt of accepted orders: the orders as the judge read them in the
    pack's printed names, cards by number and label (:mod:`pbem.report.orders_text`;
    ``hand``: the seat's hand when the orders were given, which tells cards of one name
    apart), their SHA-256, the diff against ``previous`` (the seat's orders accepted
    earlier for the step; a refused mail's are never given, issue 24 E), and, for a game of dice version 2, ``logged``: the
    SHA-256 of the orders document as logged (docs/trust.md) and ``witness``: the
    log's head after it (``HASH@N``). ``partly``: one line per part the check left partly
    to the dice before it (issue 24.1, :func:`pbem.rules.validate_partly`)."""
    pack = judge.pack_for(game_id)
    tr = seat_preferences.translations(judge.store, game_id, seat)  # the seat's language (issue 28)
    _ = tr.gettext
    # the digest is of the canonical receipt (English card labels), the same in every language; the
    # receipt shows the cards' labels in the seat's language
    digest = hashlib.sha256(orders_text.orders_yaml(pack, orders, hand).encode()).hexdigest()
    orders_yaml = orders_text.orders_yaml(pack, orders, hand, pack_names.localized(pack, i18n.language_of(tr)), tr)
    changes = None
    if previous is not None:  # both sides in one key order, so only real changes show
        before, after = (yaml.safe_dump({"orders": dict(o)}, sort_keys=True, allow_unicode=True)
                         for o in (previous, orders))
        diff = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                            _("your accepted orders"), _("these orders"), n=1))
        changes = (_("Changed from your accepted orders for this step:") + "\n\n" + diff) if diff else \
            _("Same orders as your accepted orders for this step.") + "\n"
    text = build.render_receipt(game_id, step, seat, orders_yaml, digest, note=note, changes=changes,
                                logged=logged, witness=witness, partly=partly, tr=tr)
    outbox.queue(judge, game_id=game_id, kind="reply", to_addr=parsed.sender, to_name=parsed.sender_name or None,
                 subject=re_subject(parsed.subject), text=text,
                 html=build.html_of_text(_("Orders accepted"), text, i18n.language_of(tr)),
                 id_parts=(game_id, "receipt", *answer_key(parsed)), in_reply_to=parsed.message_id,
                 references=parsed.references, auto="auto-replied")


def alert_wrong_keys(judge: Service, game_id: str, row: Mapping[str, Any], failures: int, bucket: str) -> None:
    """``failures`` mails with a wrong key or from another address claimed the seat
    within the hour: alert the seat and tell the host (once per hour ``bucket``)."""
    tr = seat_preferences.translations(judge.store, game_id, row["seat"])  # the seat's language (issue 28)
    body = tr.ngettext(
        "%(num)d mail in the last hour claimed your seat %(seat)s in %(game)s with a wrong key or "
        "from an address that is not yours. None was applied. If they were not yours, someone is trying "
        "to guess your key; after 10 wrong keys in an hour the seat is locked for an hour. Ask the host "
        "for a new key if you think yours is known.",
        "%(num)d mails in the last hour claimed your seat %(seat)s in %(game)s with a wrong key or "
        "from an address that is not yours. None was applied. If they were not yours, someone is trying "
        "to guess your key; after 10 wrong keys in an hour the seat is locked for an hour. Ask the host "
        "for a new key if you think yours is known.", failures) % {"num": failures, "seat": row["seat"],
                                                                   "game": game_id}
    subject, text = f"[{game_id}] " + tr.gettext("wrong keys for your seat"), build.render_notice(body, game_id, tr)
    outbox.queue(judge, game_id=game_id, kind="alert", to_addr=row["email"], to_name=row["player"],
                 subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                 id_parts=(game_id, "wrong-keys", row["seat"], bucket))
    host = host_notices.host_translations(judge, game_id)  # the host's language (issue 28)
    host_notices.notify_host(judge, game_id, host.ngettext(
        "%(num)d mail in the last hour claimed seat %(seat)s "
        "(%(player)s, %(email)s) in %(game)s with a wrong key or from another "
        "address; none was applied and the player was alerted. After 10 wrong keys from the "
        "seat's address within an hour the seat is locked for an hour.",
        "%(num)d mails in the last hour claimed seat %(seat)s "
        "(%(player)s, %(email)s) in %(game)s with a wrong key or from another "
        "address; none was applied and the player was alerted. After 10 wrong keys from the "
        "seat's address within an hour the seat is locked for an hour.", failures) % {
            "num": failures, "seat": row["seat"], "player": row["player"], "email": row["email"], "game": game_id},
                     kind="wrong keys", once=f"{row['seat']} {bucket}")


def alert_seat(judge: Service, game_id: str, row: Mapping[str, Any], parsed: ParsedMail) -> None:
    """A mail from another address carried the seat's right key: alert the seat at its
    registered address and tell the host — once an hour per seat, so that someone who
    has the key cannot flood them. (The sender is answered as for a wrong key.)"""
    bucket = judge.clock().strftime("%Y%m%d%H")
    tr = seat_preferences.translations(judge.store, game_id, row["seat"])  # the seat's language (issue 28)
    body = tr.gettext(
        "A mail from %(sender)s carried the correct key for your seat %(seat)s in "
        "%(game)s (subject: %(subject)s). It was held, not applied: orders are accepted "
        "only from your registered address. If you sent it, send it again from this address; if "
        "not, your key may be known to someone else: ask the host for a new one.") % {
            "sender": parsed.sender, "seat": row["seat"], "game": game_id, "subject": repr(parsed.subject)}
    subject = f"[{game_id}] " + tr.gettext("held: orders for your seat from another address")
    text = build.render_notice(body, game_id, tr)
    outbox.queue(judge, game_id=game_id, kind="alert", to_addr=row["email"], to_name=row["player"],
                 subject=subject, text=text, html=build.html_of_text(subject, text, i18n.language_of(tr)),
                 id_parts=(game_id, "held", row["seat"], bucket))
    host = host_notices.host_translations(judge, game_id)  # the host's language (issue 28)
    host_notices.notify_host(judge, game_id, host.gettext(
        "A mail from %(sender)s carried the correct key for seat %(seat)s "
        "(%(player)s, registered as %(email)s) in %(game)s (subject: "
        "%(subject)s). It was held, not applied, and the player was alerted at the "
        "registered address; the sender got the answer any other address gets. If the player "
        "changed address, update the config; if not, the key may be known to someone else: give "
        "the seat a new key (`pbem key new`). `pbem status` lists held mail.") % {
            "sender": parsed.sender, "seat": row["seat"], "player": row["player"], "email": row["email"],
            "game": game_id, "subject": repr(parsed.subject)},
        kind="held", once=f"{row['seat']} {bucket}")

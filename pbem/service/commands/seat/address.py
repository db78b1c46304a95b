"""``command: address``: a seat moves to a new address, confirmed from both (issue 16).

1. From the seat's registered address, with its key::

       game: g2
       seat: east
       key: <the seat key>
       command: address
       to: Ann Smith <ann@new.example>

   The judge mails a confirmation code to the new address (only its salted hash is
   stored, ``address_changes``); a newer request replaces an older one.
2. From the new address, within :data:`EXPIRES` (no key: the address is not the
   seat's yet, and the code proves the old address asked)::

       game: g2
       seat: east
       confirm: <the code>

   The seat's address changes (its key stays), ``AddressChanged`` is logged with the
   address as a keyed digest (:func:`address_digest`, never in clear), both addresses
   are told, and a pending prompt goes again to the new address.

A wrong, expired or unknown code gets one answer (no oracle) and is recorded as a failed
claim on the seat (three within the hour alert the seat and the host), but never as a
wrong key: it does not count for the seat's lock (issue 25.3; a forged ``From:`` of the
seat's own address could lock it). After :data:`MAX_TRIES` wrong codes in mail that
proves its address (:func:`pbem.service.identity.envelope.is_proven`) the request is closed.

Games from the config are refused: their addresses are the config's, which the next
``pbem run`` would put back; the host changes the config instead.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from datetime import datetime, timedelta
from email.utils import getaddresses
from typing import Any

from pbem import i18n, rules
from pbem.addresses import reaches_mailbox
from pbem.keys import hash_key, new_key, verify_key
from pbem.mail.headers import clean_text, fold_address, normalise_address
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import wrapped
from pbem.service.commands.registry import (
    Field,
    Guide,
    Limit,
    MailRequest,
    SeatCommand,
    Who,
)
from pbem.service.commands.reply import CommandError, Reply, send
from pbem.service.identity import envelope
from pbem.service.log import trust
from pbem.service.outgoing import answers, outbox, seat_preferences
from pbem.service.play import reports

EXPIRES = timedelta(hours=48)
"""How long a confirmation code is good for."""
MAX_TRIES = 5
"""Wrong codes from the new address after which the request is closed."""
CONFIRM_KEYS = ("game", "seat", "confirm", "key")
"""The keys of a confirmation (a ``key:`` line is allowed and not needed)."""
PER_DAY = 3
"""Address change requests a seat may make in 24 hours (each mails a stranger)."""


def address_digest(key_hash: str, address: str) -> str:
    """The keyed digest an address is logged as: HMAC-SHA256(seat key hash, address)
    hex, 32 digits (RFC 2104). The key hash is secret (it is in the database, never in
    the log or the archive), so the digest tells nobody the address, yet the judge can
    check a logged address against its seats."""
    return hmac.new(key_hash.encode(), f"pbem-address/v1:{address.lower()}".encode(),
                    hashlib.sha256).hexdigest()[:32]


def address(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """Open an address change towards ``to:`` and mail its code there. Raises
    CommandError for a config game, a missing or bad address, more than one address,
    the seat's own address, the judge's address (also with a ``+tag``,
    :func:`reaches_mailbox`), or an ended game (another seat's address is refused when its
    code comes back, so that the answer here tells nothing about other seats)."""
    if judge.config.game(game_id) is not None:
        raise CommandError([Problem(message=f"Game {game_id} is set up in the judge's config, so its addresses "
                                    "are the config's.", where="command", code="command.config_game",
                                    hint="Ask the host to change your address in the config.")])
    status = (judge.store.game(game_id) or {}).get("status")
    if status in trust.ENDED:
        raise CommandError([Problem(message=f"Game {game_id} is {status}.", where="command", code="game.over",
                                    hint="The game has ended: its seats take no more mail, so there is no "
                                         "address to change.")])
    raw = doc.get("to")
    hint = "Write `to: Your Name <you@example.org>`."
    # every address in the field (RFC 5322 address-list), not the first one alone: `a@x, b@y` used to
    # move the seat to a@x without a word (issue 25, third break-it pass)
    found = [(n, a) for n, a in getaddresses([raw]) if "@" in a] if isinstance(raw, str) else []
    if len(found) > 1:
        listed = ", ".join(clean_text(a, 80) for _n, a in found[:4]) + (", …" if len(found) > 4 else "")
        raise CommandError([Problem(message=f"`to:` names {len(found)} addresses ({listed}); a seat has one "
                                    "address.", where="to", code="command.value",
                                    hint="Write the one address the seat's mail should go to: " + hint[0].lower()
                                    + hint[1:])])
    name, addr = found[0] if found else ("", "")
    name = clean_text(name, 60)  # it goes into a mail to a stranger: no control characters (break16)
    new = normalise_address(addr) if addr else None
    if new is None:
        raise CommandError([Problem(message="`to:` must be the new address, as `Name <address>` or an address.",
                                    where="to", code="command.value", hint=hint)])
    rows = {r["seat"]: r for r in judge.store.seats(game_id)}
    if reaches_mailbox(new, judge.config.judge_address or ""):
        raise CommandError([Problem(message=f"{new} is the judge's own address"
                                    + ("" if fold_address(new) == fold_address(judge.config.judge_address or "")
                                       else " with a tag (RFC 5233 subaddressing: it reaches the judge's mailbox)")
                                    + ": the seat's mail would come back to the judge.", where="to",
                                    code="command.value", hint=hint)])
    if new == rows[seat]["email"]:
        raise CommandError([Problem(message=f"{new} is the seat's address already.", where="to",
                                    code="command.value", hint=hint)])
    # another seat's address is not refused here: the refusal would tell the player whose address a guess
    # is (break16); its confirmation is refused instead (one seat per address, :func:`confirm_mail`)
    now = judge.clock()
    if judge.store.address_changes_since(game_id, seat, (now - timedelta(days=1)).isoformat()) >= PER_DAY:
        raise CommandError([Problem(message=f"Seat {seat} asked for {PER_DAY} address changes within 24 hours; "
                                    "that is the most the judge sends.", where="command", code="command.rate",
                                    hint="Use the code of the latest confirmation mail, or ask again tomorrow.")])
    code = new_key()
    change = judge.store.add_address_change(game_id, seat, new, hash_key(code), now.isoformat())
    trust.log_events(judge, game_id, [rules.judge_event("PlayerActed", {"command": "address", "seat": seat})])
    until = (now + EXPIRES).strftime("%Y-%m-%d %H:%M UTC")
    tr = seat_preferences.translations(judge.store, game_id, seat)  # the seat's language (issue 28)
    _ = tr.gettext
    values = {"name": name, "seat": seat, "game": game_id, "judge": judge.config.judge_address, "until": until,
              "new": new}
    body = build.render_notice(wrapped(
        (_("Hello %(name)s: the player of seat %(seat)s in %(game)s asked the judge to send the seat's mail to "
           "this address from now on. To confirm, send the judge (%(judge)s) a mail from this address, before "
           "%(until)s, holding these lines:") if name else
         _("Hello: the player of seat %(seat)s in %(game)s asked the judge to send the seat's mail to this "
           "address from now on. To confirm, send the judge (%(judge)s) a mail from this address, before "
           "%(until)s, holding these lines:")) % values)
        + f"\n\n    game: {game_id}\n    seat: {seat}\n    confirm: {code}\n\n"
        + wrapped(_("If you did not ask for this, ignore this mail: nothing changes without it.")), game_id, tr)
    subject = f"[{game_id}] " + _("confirm your address for seat %(seat)s") % values
    outbox.queue(judge, game_id=game_id, kind="notice", to_addr=new, to_name=name or None, subject=subject,
                 text=body, html=build.html_of_text(subject, body, i18n.language_of(tr)),
                 id_parts=(game_id, "address", seat, change))
    return Reply(_("address"), _("A confirmation code went to %(new)s. Your seat's mail moves there once the code "
                                 "comes back from that address, before %(until)s (the mail there says how). Until "
                                 "then everything goes to this address; a new `command: address` replaces this "
                                 "request.") % values)


def _no_change(game_id: Any) -> Problem:
    return Problem(message="No address change waits for this address with that code (codes are good for "
                   f"{int(EXPIRES.total_seconds() // 3600)} hours and are used once).", where="confirm",
                   code="command.code",
                   hint="Copy the three lines from the confirmation mail exactly, or ask for a new code with "
                        "`command: address` from the seat's registered address.")


def confirm_mail(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                 shown: Mapping[str, Any]) -> str:
    """A ``confirm:`` document from the new address (see the module docstring).
    Returns the inbox status (``answered`` or ``rejected``)."""
    shown = {**shown, "confirm": "(hidden)"}
    game_id, seat, code = doc.get("game"), doc.get("seat"), doc.get("confirm")
    known = isinstance(game_id, str) and judge.store.game(game_id) is not None
    seats = {r["seat"]: r for r in judge.store.seats(game_id)} if known else {}
    unknown = [k for k in doc if k not in CONFIRM_KEYS]
    if not known or not isinstance(seat, str) or seat not in seats or unknown:
        issues = [_no_change(game_id)] + [Problem(message=f"Unknown key `{k}` in a confirmation.", where=str(k),
                                                  code="envelope.unknown_key",
                                                  hint="A confirmation has only game:, seat: and confirm:.")
                                          for k in unknown]
        return answers.reject(judge, parsed, rec, issues, game_id if known else None, None, {"document": shown})
    assert isinstance(game_id, str) and isinstance(seat, str)
    now = judge.clock()
    match = None
    for ch in judge.store.open_address_changes(game_id, parsed.sender or ""):
        if now - datetime.fromisoformat(ch["requested_at"]) >= EXPIRES:
            judge.store.close_address_change(ch["id"], "expired", now.isoformat())
        elif ch["seat"] == seat:
            match = ch
    if match is None or not isinstance(code, str) or not verify_key(code.strip(), match["code_hash"]):
        # a failed claim on the seat: the third within the hour alerts the seat and the host, as the
        # guides say (break16: a wrong code never alerted anyone). It is no wrong *key*, so it never
        # counts for the seat's lock (issue 25.3: forged confirmations from the seat's own From: locked
        # it); only codes in mail that proves its address close the request
        proven = envelope.is_proven(judge, parsed)
        since = (now - envelope.WINDOW).isoformat()
        envelope._maybe_alert(judge, game_id, seats[seat],  # the one alert rule
                              judge.store.auth_failures(game_id, seat, since, envelope.AUTH_FAILURES) + 1)
        if match is not None and proven:
            tries = judge.store.auth_failure_times(game_id, seat, match["requested_at"], (envelope.WRONG_CODE,),
                                                   parsed.sender or "")
            if len(tries) + 1 >= MAX_TRIES:
                judge.store.close_address_change(match["id"], "failed", now.isoformat())
        return answers.reject(judge, parsed, rec, [_no_change(game_id)], game_id, seat, {"document": shown},
                              reason=envelope.WRONG_CODE if proven else envelope.UNVERIFIED_CODE)
    old = seats[seat]
    new = match["new_email"]
    holder = next((s for s, r in seats.items() if s != seat and fold_address(r["email"]) == fold_address(new)), None)
    if holder is not None:  # another seat moved here since the request (break16): one seat per address
        judge.store.close_address_change(match["id"], "taken", now.isoformat())
        return answers.reject(judge, parsed, rec, [Problem(
            message=f"This address is now the address of seat {holder} of {game_id}, so it cannot take seat "
                    f"{seat} too (one seat per address); the request is closed.", where="confirm",
            code="command.value", hint=f"The player of {seat} may ask again for another address with "
                                        "`command: address`.")], game_id, seat, {"document": shown})
    judge.store.close_address_change(match["id"], "done", now.isoformat())
    judge.store.update_seat(game_id, seat, player=old["player"], email=new, key_hash=old["key_hash"])
    head = trust.log_events(judge, game_id, [rules.judge_event(
        "AddressChanged", {"seat": seat, "address": address_digest(old["key_hash"], new)})])
    tr = seat_preferences.translations(judge.store, game_id, seat)  # the seat's language (issue 28)
    _ = tr.gettext
    values = {"seat": seat, "game": game_id, "new": new}
    note = build.render_notice(wrapped(_(
        "The mail of your seat %(seat)s in %(game)s goes to %(new)s from now on: the change you asked for was "
        "confirmed from there. Your key is unchanged. If you did not ask for this, tell the host at once.")
        % values), game_id, tr)
    subject = f"[{game_id}] " + _("seat %(seat)s: address changed") % values
    outbox.queue(judge, game_id=game_id, kind="notice", to_addr=old["email"], to_name=old["player"],
                 subject=subject, text=note, html=build.html_of_text(subject, note, i18n.language_of(tr)),
                 id_parts=(game_id, "address-done", seat, match["id"]))
    iid = rec("answered", "address-confirmed", game_id=game_id, seat=seat, result={"document": shown})
    send(judge, parsed, game_id, Reply(_("address"), _(
        "Confirmed: the mail of seat %(seat)s in %(game)s comes to this address from now on, and the judge takes "
        "the seat's orders from here (with the same key).") % values
        + ("\n\n" + _("Log witness: %(witness)s") % {"witness": head} if head else "")), iid)
    reports.prompt_again(judge, game_id, seat, again=head)
    return "answered"


COMMAND = SeatCommand(
    name="address", fields=(Field("to", "address", "the new address, as `Name <address>`"),),
    limit=Limit(PER_DAY, timedelta(days=1)), logs=("PlayerActed", "AddressChanged"),
    help="Move the seat to a new address (`to: Name <address>`); the new address confirms with a code.",
    guide=Guide("player-guide.md", "Changing your address"), process=address)
CONFIRM = MailRequest(
    name="confirm", who=Who.ANYONE,
    fields=(Field("confirm", "text", "the code the new address got"), Field("key", "text", "the seat key")),
    limit=Limit(MAX_TRIES, EXPIRES), logs=("AddressChanged",),
    help="From the new address: `confirm:` with the code it got, and the seat key, to finish an address change.",
    guide=Guide("player-guide.md", "Changing your address"), process=confirm_mail)

"""The host's identity in a host command by mail: the host's address and the host key,
with the guards a seat's key has (issue 25.5; docs/host-guide.md, "Host commands").

A host key a host typed into the config (``host_key_hash``) is a PBKDF2 hash: each
check costs about 0.15 s, and a mail from the host's address could guess it without
limit. Now, exactly as for a seat (:mod:`pbem.service.identity.envelope`):

- a mail from another address gets the same refusal whatever its key, and no key is
  checked (there is nothing to learn, and nothing to pay);
- :data:`pbem.service.identity.envelope.ALERT_AFTER` failed host claims within
  :data:`pbem.service.identity.envelope.WINDOW` tell the host (once an hour);
- :data:`pbem.service.identity.envelope.LOCK_AFTER` wrong host keys within the window, in mail
  that proves the host's address (:func:`pbem.service.identity.envelope.is_proven`), lock host
  commands by mail until the window has passed since the latest: no host key is checked,
  the right one neither (``pbem host …`` on the judge's machine still works);
- a wrong host key in mail that does not prove the address never locks; past
  :data:`pbem.service.identity.envelope.FOREIGN_SLOW_CHECKS` failed claims within the window, the
  key of such a mail is no longer checked when the hash is slow;
- a right key is remembered in the judge's verified-key cache (:class:`pbem.keys.KeyCache`),
  so it pays PBKDF2 once per ``pbem run``.

The inbox reasons (not problem codes): :data:`HOST_KEY`, :data:`HOST_UNVERIFIED`,
:data:`HOST_SENDER`, :data:`HOST_LOCKED`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.keys import is_slow
from pbem.mail.headers import fold_address
from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.identity import envelope
from pbem.service.outgoing import host_notices

HOST_KEY = "auth.host.key"
"""Inbox reason: a wrong host key in mail that proves the host's address (counts for the lock)."""
HOST_UNVERIFIED = "auth.host.key.unverified"
"""Inbox reason: a wrong host key in mail that does not prove the host's address."""
HOST_SENDER = "auth.host.sender"
"""Inbox reason: a host command from another address than the host's (no key checked)."""
HOST_LOCKED = "auth.host.locked"
"""Inbox reason: a host command refused unchecked while host commands by mail are locked."""
HOST_FAILURES = (HOST_KEY, HOST_UNVERIFIED, HOST_SENDER)
"""The inbox reasons that count as a failed claim on a game's host (the alert, the slow-check cap)."""


@dataclass(frozen=True)
class HostCheck:
    """What :func:`check_host` found: ``problem`` to answer (None: the host with its
    key) and the inbox ``reason`` to record."""

    problem: Problem | None = None
    reason: str = ""


def check_host(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], game_id: str | None,
               address: str | None, key_hash: str | None, hint: str) -> HostCheck:
    """Whether ``parsed`` (a host command document ``doc`` with its ``host:`` key) is
    from the host of ``game_id`` (``address``, ``key_hash``; None when the game is
    unknown or takes no host commands by mail) with the host key (module docstring).
    The refusal is the same for a wrong address and a wrong key (no oracle); ``hint``
    says what to do instead. Never raises for a bad value."""
    refusal = Problem(message="This mail is not from the host of that game with its host key, so no host command "
                      "was carried out.", where="host", code="auth.key", hint=hint)
    sender = parsed.sender or ""
    if game_id is None or not address or not key_hash or fold_address(sender) != fold_address(address):
        if game_id is not None and address:
            _maybe_alert(judge, game_id, 1 + _failures(judge, game_id))
        return HostCheck(refusal, HOST_SENDER if game_id is not None else "auth.key")
    now = judge.clock()
    wrong = envelope.lock_count(judge.store.host_failure_times(game_id, (now - 2 * envelope.WINDOW).isoformat(),
                                                               (HOST_KEY,), sender), now)
    if wrong:
        return HostCheck(Problem(
            message=f"{wrong} mails with a wrong host key came from the host's address within an hour, so host "
                    "commands by mail are locked: no host key is checked until an hour has passed since the latest.",
            where="host", code="auth.locked",
            hint="`pbem host …` on the judge's machine works meanwhile. If the wrong keys were not yours, someone "
                 "is guessing the host key: give the game a new one (`pbem key new`)."), HOST_LOCKED)
    proven = envelope.is_proven(judge, parsed)
    failures = _failures(judge, game_id)
    if not proven and is_slow(key_hash) and failures >= envelope.FOREIGN_SLOW_CHECKS:
        return HostCheck(Problem(
            message=f"{failures} host commands for {game_id} came within the hour in mail that our receiving mail "
                    "server did not prove to come from the host's address, so the host key of such a mail is not "
                    "checked until an hour has passed.", where="host", code="auth.locked",
            hint="Send from the host's own mail account, or use `pbem host …` on the judge's machine."),
            HOST_UNVERIFIED)
    key = doc.get("host")
    if isinstance(key, str) and judge.keys.verify(key, key_hash):
        return HostCheck()
    _maybe_alert(judge, game_id, failures + 1)
    return HostCheck(refusal, HOST_KEY if proven else HOST_UNVERIFIED)


def _failures(judge: Service, game_id: str) -> int:
    """Failed host claims on ``game_id`` within the window before now, from anyone."""
    since = (judge.clock() - envelope.WINDOW).isoformat()
    return len(judge.store.host_failure_times(game_id, since, HOST_FAILURES))


def _maybe_alert(judge: Service, game_id: str, failures: int) -> None:
    """At :data:`pbem.service.identity.envelope.ALERT_AFTER` failed host claims within the
    window, tell the host (once an hour)."""
    if failures != envelope.ALERT_AFTER:
        return
    bucket = judge.clock().strftime("%Y%m%d%H")
    host_notices.notify_host(judge, game_id, lambda tr: tr.gettext(  # the host's language (issue 28)
        "%(num)s host commands for %(game)s came within the hour with a wrong host key or from another address "
        "than yours; none was carried out. After %(lock)s wrong host keys from your address within an hour, host "
        "commands by mail are locked for an hour (`pbem host …` on the judge's machine still works). If they were "
        "not yours, someone is guessing the host key: give the game a new one (`pbem key new`).") % {
        "num": failures, "game": game_id, "lock": envelope.LOCK_AFTER}, kind="wrong host keys", once=bucket)

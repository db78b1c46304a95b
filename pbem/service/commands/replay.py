"""The replay guard of commands by mail (issue 25.8; docs/player-guide.md and
docs/host-guide.md, "A command is taken once").

A mail is a duplicate only when its Message-ID *and* its bytes match one already
handled (docs/pipeline.md), so a command re-sent under a new Message-ID — by a player
or host who pressed send twice, by a client that re-sends, or by anyone holding a copy
(a DKIM-signed mail re-sent with a header added still passes DKIM) — used to be carried
out again: a second extend, a second press message, the old ``pause`` after a
``resume``, a second rollback. Standing orders have ``seq:`` for this; commands now have
the same, without making it a chore:

- every command that changes the game for the other seats or the seat's deadlines
  (a command declared ``once=True``, :mod:`pbem.service.commands.registry`) is recorded when it is applied, with
  the SHA-256 of its document (:func:`digest`: every line but the key, in canonical JSON, so a copy with
  other spacing or key order is the same document);
- a later mail with the *same document* and no ``seq:`` line is refused
  (``command.repeat``), saying when it was applied and how to do it again on purpose:
  add ``seq: N`` above the last one used;
- a command that carries ``seq: N`` is taken once: N must be above the last ``seq``
  the seat used in any mail (standing orders and commands share one counter per seat)
  or the host used in a host command of that game, so a copy of it is refused as stale
  (``envelope.stale_seq``) — and a deliberate repeat needs only a new number.

Not guarded, because asking twice is normal and a copy can do no harm: the questions
(``help``, ``status``, ``resend``); ``preferences`` (the seat's own mail settings: a copy
only sets what the seat itself once chose, toggling ``map: on``/``off`` is common, and
the answer goes to the seat's address); ``address`` (sending it again is how a player
asks for a new code; the code goes only to the address the player named, a copy from
an address that is no longer the seat's is refused, and three requests a day at most).
Commands given with the CLI on the judge's machine are not guarded either (nothing
there can be replayed by a third party).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.play import deadlines

HOST = "host"
"""The actor name of a game's host in the ``commands`` table (a seat's is its name)."""
SECRET_KEYS = ("key", "host")
"""Document keys left out of the digest (the seat key, the host key)."""


def digest(doc: Mapping[str, Any]) -> str:
    """SHA-256 hex of ``doc`` without :data:`SECRET_KEYS`, as canonical JSON (sorted
    keys; a value JSON has no form for, such as a YAML date, as its text)."""
    kept = {str(k): v for k, v in doc.items() if k not in SECRET_KEYS}
    text = json.dumps(kept, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def repeated(judge: Service, game_id: str, actor: str, doc: Mapping[str, Any], next_seq: int) -> Problem | None:
    """The refusal (``command.repeat``) of ``doc`` from ``actor`` (a seat, or
    :data:`HOST`) when the same document was applied in ``game_id`` before, else None.
    ``next_seq``: the ``seq:`` a deliberate repeat would need (named in the hint)."""
    row = judge.store.applied_command(game_id, actor, digest(doc))
    if row is None:
        return None
    return Problem(message=f"This is the same command as the one applied on {deadlines.shown(judge, game_id, row['at'])}."
                   " A command mail is carried out once: a copy sent again — by mistake, or by anyone else — "
                   "does nothing.", where="command", code="command.repeat",
                   hint=f"To do it again on purpose, add the line `seq: {next_seq}` (any number above the last "
                        "one you used) and send it again.",
                   params={"at": deadlines.shown(judge, game_id, row["at"]), "seq": next_seq})


def record(judge: Service, game_id: str, actor: str, doc: Mapping[str, Any], seq: int | None,
           inbox_id: int | None) -> None:
    """Record that ``actor`` applied the command ``doc`` (with ``seq``, None when it had
    none) from inbox row ``inbox_id``. Call in the transaction that applies it."""
    judge.store.record_command(game_id, actor, digest(doc), seq, inbox_id, judge.clock().isoformat())

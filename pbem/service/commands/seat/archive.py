"""``command: archive``: the game's log archive by mail (issue 24, finding 13).

A seat asks, with its key, from its address; the answer carries the archive as a zip
attachment (:func:`pbem.service.log.trust.log_archive`: ``log.jsonl``, ``game.json``,
``pbem_verify.py`` and a README). While the game runs it holds only the public part
— every private event's data null, no seed — exactly what ``pbem archive`` publishes
then, so a seat learns nothing secret from it; once the game is over or abandoned it
holds the whole log and the seed (the seed mail carries the same). Nothing is logged.
At most :data:`PER_HOUR` an hour per seat: each answer is a mail with an attachment.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.commands.registry import Guide, Limit, SeatCommand
from pbem.service.commands.reply import CommandError, Reply
from pbem.service.commands.seat.help import ENDED_WORDS
from pbem.service.log import trust
from pbem.service.outgoing import seat_preferences

PER_HOUR = 5
"""Archives a seat may ask for in any hour."""
NAME = "archive"
REASON = f"command.{NAME}"
"""The inbox reason of an answered request (:func:`pbem.service.commands.seat_commands.handle_mail`
records ``command.NAME``; not a problem code)."""


def archive(judge: Service, game_id: str, seat: str, doc: Mapping[str, Any]) -> Reply:
    """Answer with the game's log archive attached (module docstring). Raises
    CommandError when the seat asked :data:`PER_HOUR` times within the hour."""
    email = next(r["email"] for r in judge.store.seats(game_id) if r["seat"] == seat)
    since = (judge.clock() - timedelta(hours=1)).isoformat()
    asked = len(judge.store.auth_failure_times(game_id, seat, since, (REASON,), email))
    if asked >= PER_HOUR:
        raise CommandError([Problem(message=f"Seat {seat} asked for the archive {asked} times within the hour; "
                                    f"the judge sends it at most {PER_HOUR} times an hour.", where="command",
                                    code="command.rate",
                                    hint="The archive is in your mailbox already; ask again in an hour.")])
    game = judge.store.game(game_id) or {}
    tr = seat_preferences.translations(judge.store, game_id, seat)  # the seat's language (issue 28)
    made = trust.log_archive(judge.store, game_id, judge.clock(), tr)  # its README in that language too
    check = made.command(game.get("seed_commitment"))
    _ = tr.gettext
    values = {"game": game_id, "status": _(ENDED_WORDS.get(game.get("status") or "", game.get("status") or "")),
              "file": made.filename}
    if made.over:
        what = _("Game %(game)s is %(status)s: the attached %(file)s holds its whole log, every private event "
                 "included, the seed, and pbem_verify.py, a verifier that needs nothing but Python 3.11 or "
                 "later. Unzip it and run") % values
        after = _("It checks the hash chain, the seed, every private event, every roll and the witness of the "
                  "log's last event; add --witness for every witness you kept and --orders for the SHA-256 of "
                  "a receipt.")
    else:
        what = _("Game %(game)s is still running: the attached %(file)s holds the public part of its log "
                 "(private events only as commitments, no seed: nothing secret of any seat) and "
                 "pbem_verify.py, a verifier that needs nothing but Python 3.11 or later. Unzip it and "
                 "run") % values
        after = _("It checks the hash chain and the witnesses now; add --witness for every witness you kept, "
                  "the newest above all. Orders documents are private until the game ends, so a receipt's "
                  "--orders digest is checked in the archive of the finished game, which the seed mail "
                  "carries; so are the seed and every roll.")
    text = (f"{what}\n\n{check}\n\n{after} " + _("Compare the --commitment with the one in your first report. "
                                                  "The archive's README.txt says more; docs/trust.md what each "
                                                  "check proves."))
    return Reply(_("archive"), text, attachments=(made.attachment,))


COMMAND = SeatCommand(
    name=NAME, fields=(), limit=Limit(PER_HOUR, timedelta(hours=1)), logs=(), after_end=True,
    help="The game's archive as a zip attachment, with the command line that checks it.",
    guide=Guide("player-guide.md", "Checking the judge"), process=archive)

"""``command: end``: the game ends with a winner, or abandoned (:mod:`pbem.service.play.endgame`)."""
from __future__ import annotations

from pbem.service.base.context import Service
from pbem.service.commands.registry import Done, Field, Guide, HostCommand, HostRequest
from pbem.service.play import endgame

GUIDE = Guide("host-guide.md", "Host commands")


def process(judge: Service, request: HostRequest) -> Done:
    """End the game (:func:`pbem.service.play.endgame.end_game`). Raises ValueError for
    neither or both of ``winner`` and ``abandon``, or a winner that is no seat."""
    v = request.values
    text, head = endgame.end_game(judge, request.game_id, v.get("winner"), v.get("abandon") is True,
                                  v.get("reason", ""))
    return Done(text, head)


COMMAND = HostCommand(
    name="end", fields=(Field("winner", "seat", "the seat that wins"),
                        Field("abandon", "flag", "true: the game ends without a winner"),
                        Field("reason", "text", "why, for the players")),
    logs=("GameEnded", "SeedRevealed"), once=True, guide=GUIDE, process=process,
    help="End the game with `winner:` a seat, or `abandon: true`; the seed and the archive go to every seat.")

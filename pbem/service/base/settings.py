"""A game's table settings and host, and the wrapping of the service's notices: the
small lookups every stage above the context uses (:mod:`pbem.gamesettings`)."""
from __future__ import annotations

from dataclasses import dataclass

from pbem.gamesettings import GameSettings
from pbem.report.context import WIDTH, wrap
from pbem.service.base.context import Service


def wrapped(text: str) -> str:
    """``text`` with each paragraph wrapped to 72 columns (:data:`pbem.report.context.WIDTH`);
    paragraphs whose lines are indented (examples, keys) are kept as they are."""
    out = []
    for para in text.split("\n\n"):
        out.append(para if para.startswith(" ") else wrap(para, WIDTH))
    return "\n\n".join(out)


def host_of(judge: Service, game_id: str) -> str | None:
    """The host's address of a game: the config's, else the game's table (``pbem game
    new``), else None."""
    game = judge.config.game(game_id)
    if game is not None and game.host_email:
        return game.host_email
    row = judge.store.table_row(game_id)
    return row["host_email"] if row else None


def settings_of(judge: Service, game_id: str) -> GameSettings:
    """The table settings of a game (:mod:`pbem.gamesettings`): the config's
    ``games[].settings`` for a config game, else the game's table (``pbem game new``),
    else the defaults."""
    game = judge.config.game(game_id)
    if game is not None:
        return game.settings
    row = judge.store.table_row(game_id)
    return GameSettings.from_dict(row["settings"]) if row else GameSettings()


BOT_KINDS = ("BotSeated", "BotLeft")
"""The events that say which seats a bot plays (docs/bots.md, "At the table")."""


@dataclass(frozen=True)
class BotSeat:
    """A seat a bot plays: the bot's label (``search/1``) and why it took the seat
    (``setup``, ``host``, ``civil_disorder``, ``config``)."""

    bot: str
    why: str


def fold_bot_seats(events: list[tuple[str, dict]]) -> dict[str, BotSeat]:
    """``{seat: BotSeat}`` from ``BotSeated`` / ``BotLeft`` events ``(kind, data)`` in
    log order: a seat is the bot's from its last ``BotSeated`` until a ``BotLeft``. Pure.

    >>> fold_bot_seats([("BotSeated", {"seat": "west", "bot": "search/1", "why": "setup"})])
    {'west': BotSeat(bot='search/1', why='setup')}
    """
    out: dict[str, BotSeat] = {}
    for kind, d in events:
        if kind == "BotSeated":
            out[d["seat"]] = BotSeat(d["bot"], d["why"])
        elif kind == "BotLeft":
            out.pop(d["seat"], None)
    return out


def bot_seats(judge: Service, game_id: str) -> dict[str, BotSeat]:
    """The seats of ``game_id`` a bot plays now, folded from the game's log
    (:func:`fold_bot_seats`), in seat order of the log."""
    return fold_bot_seats(judge.store.events_of_kinds(game_id, BOT_KINDS))

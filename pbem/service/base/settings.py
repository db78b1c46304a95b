"""A game's table settings and host, and the wrapping of the service's notices: the
small lookups every stage above the context uses (:mod:`pbem.gamesettings`)."""
from __future__ import annotations

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

"""Telling a game's host: bounces, held mail, and (issue 17) internal errors and server
faults, each once."""
from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING

from pbem.report import build
from pbem.service import outbox

if TYPE_CHECKING:
    from pbem.service.judge import Judge

log = logging.getLogger(__name__)


def notify_host(judge: Judge, game_id: str, body: str, kind: str) -> None:
    """Queue a host notice ``[game] host notice: kind`` with ``body`` to the game's
    ``host_email`` (a log warning when the game has none). The same body for the same
    game and kind is queued once (its Message-ID is a hash of them)."""
    game = judge.config.game(game_id)
    if game is None or not game.host_email:
        log.warning("[%s] %s", game_id, body)
        return
    digest = hashlib.sha256(body.encode()).hexdigest()[:12]
    outbox.queue(judge, game_id=game_id, kind="host", to_addr=game.host_email, to_name=None,
                 subject=f"[{game_id}] host notice: {kind}", text=build.render_notice(body, game_id),
                 html=None, id_parts=(game_id, "host", kind, digest))

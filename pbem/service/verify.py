"""``pbem verify GAME``: the event log's hash chain is intact, and replaying every event
from the initial position gives the stored live state."""
from __future__ import annotations

from dataclasses import dataclass

from pbem import rules
from pbem.service import games
from pbem.store import Store


@dataclass(frozen=True)
class Verified:
    """What :func:`verify_game` found: the number of events and every problem (an
    empty list: the log is intact)."""

    game_id: str
    events: int
    problems: list[str]

    @property
    def ok(self) -> bool:
        """True when no problem was found."""
        return not self.problems


def verify_game(store: Store, game_id: str) -> Verified:
    """Check ``game_id``'s log. Raises KeyError when the game is unknown."""
    if store.game(game_id) is None:
        raise KeyError(game_id)
    games.game_pack(store, game_id)
    problems = store.verify_chain(game_id)
    first, last = store.first_snapshot(game_id), store.snapshot(game_id)
    events = [rules.Event(kind=e.kind, data=e.data, public=e.public, seat=e.seat) for e in store.events(game_id)]
    replayed = rules.fold(rules.GameState.from_dict(first[1]), events)
    if replayed.to_dict() != rules.GameState.from_dict(last[1]).to_dict():
        problems.append("replaying the log does not give the stored live state")
    return Verified(game_id, len(events), problems)

"""The judge's own entries in a game's log (docs/trust.md): what the seats sent and
what the host did, chained with the game's events so they cannot be changed unseen.
None changes the position (no reducer); the service makes them with
:func:`pbem.rules.core.events.judge_event`.

- ``SeedCommitted`` (the first event of a game): the SHA-256 of the secret dice seed
  and the dice version;
- ``OrdersAccepted``: the orders document of one decision as the judge took it (the
  seat, the step, the orders in JSON form, the optional ``salt``, ``by`` "mail" or
  "deadline"); the dice of the decision derive from it (:mod:`pbem.rules.dice`).
  Private to its seat until the game is over;
- ``SeedRevealed``: the seed, once the game is over or abandoned;
- ``SeatChanged``: the config gave a seat another player, address or key (the address
  itself is not logged: the archive is public); ``by: standby`` when a substitute from
  the standby list took the seat (issue 29);
- ``GameAbandoned``: the host ended the game before its end.
"""
from __future__ import annotations

from pbem.rules.core.events.base import EventKind

KINDS = (
    EventKind('SeedCommitted',
              ('commitment', 'dice'),
              say=lambda p, d: f"The dice seed is committed: its SHA-256 is {d.get('commitment')}."),
    EventKind('OrdersAccepted',
              ('by', 'orders', 'salt', 'seat', 'step'),
              seen_by='seat'),
    EventKind('SeedRevealed',
              ('commitment', 'seed'),
              say=lambda p, d: f"The dice seed is published: {d.get('seed')} (its SHA-256 is "
                               f"{d.get('commitment')})."),
    EventKind('SeatChanged',
              ('changed', 'player', 'seat'),
              optional=('by', 'config_key'),
              say=lambda p, d: (f"Seat {d.get('seat')}: a substitute from the standby list took it (player: "
                                f"{d.get('player')})." if d.get('by') == 'standby' else
                                f"Seat {d.get('seat')}: the host changed its "
                                + " and ".join(str(x) for x in d.get('changed') or ['record'])
                                + f" (player: {d.get('player')}).")),
    EventKind('GameAbandoned',
              ('reason',),
              say=lambda p, d: f"The host abandoned the game ({d.get('reason') or 'no reason given'})."),
)

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

from pbem.rules.core.events.base import EventKind, said, seat_of
from pbem.rules.core.names import N_

CHANGED = {"record": N_("record"), "player": N_("player"), "address": N_("address"), "key": N_("key")}
"""What the host may change of a seat (``SeatChanged``'s ``changed``), in words."""


KINDS = (
    EventKind('SeedCommitted',
              ('commitment', 'dice'),
              say=said(N_("The dice seed is committed: its SHA-256 is %(commitment)s."),
                       commitment=lambda p, d, t: d.get('commitment'))),
    EventKind('OrdersAccepted',
              ('by', 'orders', 'salt', 'seat', 'step'),
              seen_by='seat'),
    EventKind('SeedRevealed',
              ('commitment', 'seed'),
              say=said(N_("The dice seed is published: %(seed)s (its SHA-256 is %(commitment)s)."),
                       seed=lambda p, d, t: d.get('seed'), commitment=lambda p, d, t: d.get('commitment'))),
    EventKind('SeatChanged',
              ('changed', 'player', 'seat'),
              optional=('by', 'config_key'),
              say=lambda p, d, t: (
                  said(N_("Seat %(seat)s: a substitute from the standby list took it (player: %(player)s)."),
                       seat=seat_of, player=lambda p, d, t: d.get('player'))(p, d, t)
                  if d.get('by') == 'standby' else
                  said(N_("Seat %(seat)s: the host changed its %(changed)s (player: %(player)s)."), seat=seat_of,
                       changed=lambda p, d, t: t.gettext(" and ").join(
                           t.gettext(CHANGED[str(x)]) if str(x) in CHANGED else str(x)
                           for x in d.get('changed') or ['record']),
                       player=lambda p, d, t: d.get('player'))(p, d, t))),
    EventKind('GameAbandoned',
              ('reason',),
              say=said(N_("The host abandoned the game (%(reason)s)."),
                       reason=lambda p, d, t: d.get('reason') or t.gettext('no reason given'))),
)

"""The table's events (issue 16): what the host and the players did to the game around
the rules — pauses, deadlines moved, seats replaced, absences, missed decisions, civil
disorder, preferences, press, a rollback, the end declared by the host. They are
chained with the game's other events, so none can be changed unseen
(docs/host-guide.md).

Only two change the position: ``StateRestored`` (a rollback: the position of an
earlier step comes back, numbered as a new step, so no die of the replayed steps is
drawn at a position used before; ``StandingRestored``, seen by its seat only, then
tells each seat whose standing orders it set back, issue 25.9) and ``GameEnded``
(the host declares the result or abandons the game). The others have no reducer: the service acts on them
(:mod:`pbem.service.commands.host_commands`, :mod:`pbem.service.play.setup`); folding them into a stored
table state that ``pbem verify`` compares is planned, not built. Only the kinds in
:data:`KINDS` are declared so far (see there).

Addresses and keys never enter the log in clear (the archive is public): a seat's
address is logged as a keyed digest, its key as the SHA-256 of its salted hash.
"""
from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.events.base import EventKind
from pbem.rules.core.names import printed_name
from pbem.rules.core.state import State


def _restored(s: State, d: dict[str, Any]) -> None:
    state = copy.deepcopy(d["state"])
    s.clear()
    s.update(state)


def _ended(s: State, d: dict[str, Any]) -> None:
    s["result"] = {"winner": d.get("winner"), "how": d["how"], "reason": d.get("reason") or "",
                   "rule": "vote" if d.get("by") == "vote" else "host"}
    if d.get("among"):
        s["result"]["among"] = list(d["among"])
    s["phase"] = "over"
    s["active"] = None


def _proposed(d: dict[str, Any]) -> str:
    """What a ``VoteProposed`` proposes, in words."""
    what = d.get("what")
    if what == "draw":
        return "a draw among " + ", ".join(str(s) for s in d.get("among") or [])
    if what == "pause":
        return f"a pause of {d.get('days')} day(s)"
    return f"that {_who(d)} concedes"


def _drawn(d: dict[str, Any]) -> str:
    """A ``GameEnded`` of a draw agreed by vote, in words."""
    return ("The game ends in a draw among " + ", ".join(str(s) for s in d.get("among") or [])
            + f", agreed by every seat still in the game (proposal {d.get('proposal')}).")


def _who(d: dict[str, Any]) -> str:
    return str(d.get("seat") or "a seat")


def _due(d: dict[str, Any]) -> str:
    """A logged deadline (ISO 8601 with its offset) in UTC, to the minute."""
    try:
        return datetime.fromisoformat(str(d.get("due"))).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return str(d.get("due"))


MOVED_WHY = {"extend": "the host extended it", "pause": "moved on by the length of the pause",
             "absence": "moved out of its player's absence"}


def _span(seconds: Any) -> str:
    s = int(seconds or 0)
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def _standing_text(p: Pack, orders: Any) -> str:
    """Standing orders as one line for a report: each order in braces, the
    pack's things by their printed names."""
    def shown(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(shown(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        return printed_name(p, v) if isinstance(v, str) else str(v)
    if not isinstance(orders, list) or not orders:
        return "none"
    return "; ".join("{" + ", ".join(f"{k}: {v if k == 'when' else shown(v)}" for k, v in o.items()) + "}"
                     if isinstance(o, dict) else shown(o) for o in orders)


def _standing_restored(p: Pack, d: dict[str, Any]) -> str:
    return (f"The rollback put your standing orders back as they were at step {d.get('to_step')}: "
            f"{_standing_text(p, d.get('standing'))}. Those you sent after it no longer apply; to give them "
            f"again, send them with `seq: {d.get('next_seq')}` or higher.")


BOT_WHY = {"setup": "a bot seat from the start", "host": "the host's choice",
           "civil_disorder": "the seat fell into civil disorder and the game's civil_disorder setting is bot",
           "orders": "its player sent valid orders again", "config": "the judge's config changed",
           "standby": "a substitute from the standby list took the seat"}
"""Why a bot took or left a seat (``BotSeated`` and ``BotLeft``'s ``why``), in words."""

PLANNED = (
    EventKind('TableSet',
              ('host', 'seats', 'settings'),
              say=lambda p, d: "The judge records the table: the seats, the host and the game's settings."),
    EventKind('SettingsChanged',
              ('changed', 'settings'),
              say=lambda p, d: "The host changed the game's settings: "
                               + ", ".join(str(k).replace("_", " ") for k in d.get("changed") or []) + "."),
    EventKind('HostActed',
              ('command',),
              optional=('seat', 'what'),
              say=lambda p, d: f"The host asked for {str(d.get('command', 'a command')).replace('_', ' ')}."),
    EventKind('PlayerActed',
              ('command', 'seat'),
              say=lambda p, d: f"{_who(d)} asked for {str(d.get('command', 'a command')).replace('_', ' ')}."),
    EventKind('GamePaused',
              ('at', 'reason'),
              optional=('until', 'proposal'),
              say=lambda p, d: (f"Every seat still in the game agreed to pause it until {_due({'due': d['until']})} "
                                f"(proposal {d.get('proposal')})." if d.get('until') else
                                f"The host paused the game: {d.get('reason') or 'no reason given'}.")),
    EventKind('GameResumed',
              ('at', 'paused_seconds', 'reason'),
              optional=('by',),
              say=lambda p, d: ("The pause the seats agreed is over" if d.get('by') == 'vote' else "The host resumed")
                               + f" the game after a pause of {_span(d.get('paused_seconds'))}; "
                               "every open deadline moved on by the time it was paused."),
    EventKind('DeadlineMoved',
              ('due', 'seat', 'step', 'why'),
              say=lambda p, d: f"The deadline of {_who(d)} for step {d.get('step')} is now {_due(d)} ("
                               + MOVED_WHY.get(str(d.get("why")), str(d.get("why", "")).replace("_", " ")) + ")."),
    EventKind('SeatReplaced',
              ('address', 'key', 'player', 'seat'),
              say=lambda p, d: f"{_who(d)} has a new player: {d.get('player')}."),
    EventKind('AddressChanged',
              ('address', 'seat'),
              say=lambda p, d: f"The player of {_who(d)} changed address (confirmed from both)."),
    EventKind('AbsenceDeclared',
              ('days', 'from', 'seat', 'to'),
              optional=('cancel',),
              say=lambda p, d: (f"The player of {_who(d)} cancelled an absence." if d.get('cancel') else
                                f"The player of {_who(d)} is away from {d.get('from')} to {d.get('to')}.")),
    EventKind('DecisionMissed',
              ('missed', 'seat', 'step', 'total'),
              say=lambda p, d: f"{_who(d)} sent no orders in time: the default was played "
                               f"({d.get('missed')} in a row)."),
    EventKind('CivilDisorderDeclared',
              ('missed', 'seat'),
              say=lambda p, d: f"{_who(d)} falls into civil disorder: the default plays for it until a "
                               "player takes the seat."),
    EventKind('SeatReturned',
              ('seat', 'was_in_disorder'),
              optional=('by',),
              say=lambda p, d: (f"{_who(d)} has a new player." if d.get('by') == 'replace'
                                else f"The player of {_who(d)} sends orders again.")),
    EventKind('BotSeated',
              ('bot', 'seat', 'why'),
              say=lambda p, d: f"The bot {d.get('bot')} plays {_who(d)} from now on ("
                               + BOT_WHY.get(str(d.get('why')), str(d.get('why'))) + ")."),
    EventKind('BotLeft',
              ('bot', 'seat', 'why'),
              say=lambda p, d: f"The bot {d.get('bot')} no longer plays {_who(d)} ("
                               + BOT_WHY.get(str(d.get('why')), str(d.get('why'))) + ")."),
    EventKind('PreferencesSet',
              ('prefs', 'seat'),
              seen_by='seat'),
    EventKind('PressSent',
              ('commitment', 'id'),
              seen_by='judge'),
    EventKind('StateRestored',
              ('from_step', 'reason', 'state', 'to_step'),
              reduce=_restored,
              seen_by='judge'),
    EventKind('StandingRestored',
              ('next_seq', 'seat', 'standing', 'to_step'),
              say=_standing_restored,
              seen_by='seat'),
    EventKind('RollbackAnnounced',
              ('from_step', 'reason', 'to_step'),
              say=lambda p, d: f"The host rolled the game back to step {d.get('to_step')} "
                               f"({d.get('reason') or 'no reason given'})."),
    EventKind('GameEnded',
              ('how', 'reason', 'winner'),
              optional=('among', 'by', 'proposal'),
              reduce=_ended,
              say=lambda p, d: (_drawn(d) if d.get('how') == 'draw' else
                                f"{d.get('winner')} wins: every other seat conceded (proposal {d.get('proposal')})."
                                if d.get('by') == 'vote' else
                                "The host ended the game: " + (f"{d.get('winner')} wins" if d.get('winner')
                                                               else "it is abandoned")
                                + f" ({d.get('reason') or 'no reason given'}).")),
    EventKind('VoteProposed',
              ('expires', 'proposal', 'seat', 'step', 'what'),
              optional=('among', 'days'),
              say=lambda p, d: f"{_who(d)} proposes {_proposed(d)} (proposal {d.get('proposal')}); every seat "
                               "still in the game votes, and only a unanimous yes carries it."),
    EventKind('VoteCast',
              ('proposal', 'seat', 'vote'),
              seen_by='judge'),
    EventKind('VoteDecided',
              ('outcome', 'proposal', 'votes'),
              optional=('why',),
              say=lambda p, d: f"Proposal {d.get('proposal')} is {d.get('outcome')}"
                               + (f" ({d.get('why')})" if d.get('why') else "") + ": "
                               + (", ".join(f"{k} {v}" for k, v in sorted((d.get('votes') or {}).items()))
                                  or "no votes") + "."),
    EventKind('SeatConceded',
              ('proposal', 'seat'),
              say=lambda p, d: f"{_who(d)} concedes: it takes no more decisions (the defaults play for it, as "
                               "in civil disorder) and cannot win; its pieces stay on the map."),
)

_EMITTED: tuple[str, ...] = ("TableSet", "HostActed", "PlayerActed", "GamePaused", "GameResumed", "DeadlineMoved",
                              "DecisionMissed", "CivilDisorderDeclared", "SeatReturned", "AbsenceDeclared",
                              "PreferencesSet", "PressSent", "AddressChanged", "BotSeated", "BotLeft",
                              "GameEnded", "StateRestored", "RollbackAnnounced", "StandingRestored",
                              "VoteProposed", "VoteCast", "VoteDecided", "SeatConceded")

KINDS = tuple(k for k in PLANNED if k.name in _EMITTED)
"""The declared kinds: the catalogue takes only kinds the service emits (the catalogue
test); the rest of :data:`PLANNED` is the design of the later slices of issue 16 and
joins :data:`KINDS` with the command that emits it. ``GameEnded`` (the host's ``end``,
:mod:`pbem.service.play.endgame`) sits beside the judge family's ``GameAbandoned`` (``pbem
abandon``, which leaves the position as it is); ``SeatReplaced`` must still be reconciled
with ``SeatChanged``, which ``replace`` logs."""

HOST_KINDS: tuple[str, ...] = tuple(k.name for k in KINDS)
"""The table's event kinds (the service's, not the rules' output)."""

"""The table's events (issue 16): what the host and the players did to the game around
the rules — pauses, deadlines moved, seats replaced, absences, missed decisions, civil
disorder, preferences, press, a rollback, the end declared by the host. They are
chained with the game's other events, so none can be changed unseen
(docs/host-guide.md).

Only three change the position: ``SeatConceded`` (the seat is out of the contest for
victory, the state's ``conceded``), ``StateRestored`` (a rollback: the position of an
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
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from pbem.pack.model import Pack
from pbem.rules.core.events.base import EventKind, said
from pbem.rules.core.names import ENGLISH, N_, Words, printed_name
from pbem.rules.core.notes import reason_text
from pbem.rules.core.state import SEATS, State


def _restored(s: State, d: dict[str, Any]) -> None:
    kept = list(s.get("conceded") or ())  # a concession is for good: a rollback does not undo it
    state = copy.deepcopy(d["state"])
    s.clear()
    s.update(state)
    if kept:
        s["conceded"] = kept


def _ended(s: State, d: dict[str, Any]) -> None:
    s["result"] = {"winner": d.get("winner"), "how": d["how"], "reason": d.get("reason") or "",
                   "rule": "vote" if d.get("by") == "vote" else "host"}
    if d.get("among"):
        s["result"]["among"] = list(d["among"])
    s["phase"] = "over"
    s["active"] = None


def _conceded(s: State, d: dict[str, Any]) -> None:
    """``SeatConceded``: the seat joins the state's ``conceded`` (seat order), out of the
    contest for victory ([D] docs/rules.md, "Votes and concession")."""
    out = set(s.get("conceded") or ()) | {d["seat"]}
    s["conceded"] = [x for x in SEATS if x in out]


def _proposed(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """What a ``VoteProposed`` proposes, in words."""
    what = d.get("what")
    if what == "draw":
        return t.gettext("a draw among %(seats)s") % {"seats": ", ".join(str(s) for s in d.get("among") or [])}
    if what == "pause":
        return t.gettext("a pause of %(days)s day(s)") % {"days": d.get('days')}
    return t.gettext("that %(seat)s concedes") % {"seat": _who(p, d, t)}


def _drawn(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    """A ``GameEnded`` of a draw agreed by vote, in words."""
    return t.gettext("The game ends in a draw among %(seats)s, agreed by every seat still in the game (proposal "
                     "%(proposal)s).") % {"seats": ", ".join(str(s) for s in d.get("among") or []),
                                          "proposal": d.get('proposal')}


def _who(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    return str(d.get("seat") or t.gettext("a seat"))


def _reason(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    return str(d.get('reason') or t.gettext('no reason given'))


def _bot_why(p: Any, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    why = str(d.get('why'))
    return t.gettext(BOT_WHY[why]) if why in BOT_WHY else why


def _due(d: dict[str, Any]) -> str:
    """A logged deadline (ISO 8601 with its offset) in UTC, to the minute."""
    try:
        return datetime.fromisoformat(str(d.get("due"))).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return str(d.get("due"))


MOVED_WHY = {"extend": N_("the host extended it"), "pause": N_("moved on by the length of the pause"),
             "absence": N_("moved out of its player's absence")}


def _span(seconds: Any) -> str:
    s = int(seconds or 0)
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def _standing_text(p: Pack, orders: Any, t: Words = ENGLISH) -> str:
    """Standing orders as one line for a report: each order in braces, the
    pack's things by their printed names."""
    def shown(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(shown(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        return printed_name(p, v) if isinstance(v, str) else str(v)
    if not isinstance(orders, list) or not orders:
        return t.gettext("none")
    return "; ".join("{" + ", ".join(f"{k}: {v if k == 'when' else shown(v)}" for k, v in o.items()) + "}"
                     if isinstance(o, dict) else shown(o) for o in orders)


def _standing_restored(p: Pack, d: Mapping[str, Any], t: Words = ENGLISH) -> str:
    return t.gettext("The rollback put your standing orders back as they were at step %(step)s: %(standing)s. Those "
                     "you sent after it no longer apply; to give them again, send them with `seq: %(seq)s` or "
                     "higher.") % {"step": d.get('to_step'), "standing": _standing_text(p, d.get('standing'), t),
                                   "seq": d.get('next_seq')}


BOT_WHY = {"setup": N_("a bot seat from the start"), "host": N_("the host's choice"),
           "civil_disorder": N_("the seat fell into civil disorder and the game's civil_disorder setting is bot"),
           "orders": N_("its player sent valid orders again"), "config": N_("the judge's config changed"),
           "standby": N_("a substitute from the standby list took the seat")}
"""Why a bot took or left a seat (``BotSeated`` and ``BotLeft``'s ``why``), in words."""

PLANNED = (
    EventKind('TableSet',
              ('host', 'seats', 'settings'),
              say=said(N_("The judge records the table: the seats, the host and the game's settings."))),
    EventKind('SettingsChanged',
              ('changed', 'settings'),
              say=said(N_("The host changed the game's settings: %(changed)s."),
                       changed=lambda p, d, t: ", ".join(str(k).replace("_", " ") for k in d.get("changed") or []))),
    EventKind('HostActed',
              ('command',),
              optional=('seat', 'what'),
              say=said(N_("The host asked for %(command)s."),
                       command=lambda p, d, t: str(d.get('command', 'a command')).replace('_', ' '))),
    EventKind('PlayerActed',
              ('command', 'seat'),
              say=said(N_("%(seat)s asked for %(command)s."), seat=_who,
                       command=lambda p, d, t: str(d.get('command', 'a command')).replace('_', ' '))),
    EventKind('GamePaused',
              ('at', 'reason'),
              optional=('until', 'proposal'),
              say=lambda p, d, t: (t.gettext("Every seat still in the game agreed to pause it until %(until)s (proposal "
                                             "%(proposal)s).") if d.get('until') else
                                   t.gettext("The host paused the game: %(reason)s.")) % {
                  "until": _due({'due': d.get('until')}), "proposal": d.get('proposal'), "reason": _reason(p, d, t)}),
    EventKind('GameResumed',
              ('at', 'paused_seconds', 'reason'),
              optional=('by',),
              say=lambda p, d, t: (t.gettext("The pause the seats agreed is over the game after a pause of %(span)s; every "
                                             "open deadline moved on by the time it was paused.") if d.get('by') == 'vote'
                                   else t.gettext("The host resumed the game after a pause of %(span)s; every open "
                                                  "deadline moved on by the time it was paused.")) % {
                  "span": _span(d.get('paused_seconds'))}),
    EventKind('DeadlineMoved',
              ('due', 'seat', 'step', 'why'),
              say=said(N_("The deadline of %(seat)s for step %(step)s is now %(due)s (%(why)s)."), seat=_who,
                       step=lambda p, d, t: d.get('step'), due=lambda p, d, t: _due(d),
                       why=lambda p, d, t: (t.gettext(MOVED_WHY[str(d.get("why"))]) if str(d.get("why")) in MOVED_WHY
                                            else str(d.get("why", "")).replace("_", " ")))),
    EventKind('SeatReplaced',
              ('address', 'key', 'player', 'seat'),
              say=said(N_("%(seat)s has a new player: %(player)s."), seat=_who, player=lambda p, d, t: d.get('player'))),
    EventKind('AddressChanged',
              ('address', 'seat'),
              say=said(N_("The player of %(seat)s changed address (confirmed from both)."), seat=_who)),
    EventKind('AbsenceDeclared',
              ('days', 'from', 'seat', 'to'),
              optional=('cancel',),
              say=lambda p, d, t: (t.gettext("The player of %(seat)s cancelled an absence.") if d.get('cancel') else
                                   t.gettext("The player of %(seat)s is away from %(from)s to %(to)s.")) % {
                  "seat": _who(p, d, t), "from": d.get('from'), "to": d.get('to')}),
    EventKind('DecisionMissed',
              ('missed', 'seat', 'step', 'total'),
              say=said(N_("%(seat)s sent no orders in time: the default was played (%(missed)s in a row)."), seat=_who,
                       missed=lambda p, d, t: d.get('missed'))),
    EventKind('CivilDisorderDeclared',
              ('missed', 'seat'),
              say=said(N_("%(seat)s falls into civil disorder: the default plays for it until a player takes the "
                          "seat."), seat=_who)),
    EventKind('SeatReturned',
              ('seat', 'was_in_disorder'),
              optional=('by',),
              say=lambda p, d, t: (t.gettext("%(seat)s has a new player.") if d.get('by') == 'replace'
                                   else t.gettext("The player of %(seat)s sends orders again.")) % {"seat": _who(p, d, t)}),
    EventKind('BotSeated',
              ('bot', 'seat', 'why'),
              say=said(N_("The bot %(bot)s plays %(seat)s from now on (%(why)s)."), bot=lambda p, d, t: d.get('bot'),
                       seat=_who, why=_bot_why)),
    EventKind('BotLeft',
              ('bot', 'seat', 'why'),
              say=said(N_("The bot %(bot)s no longer plays %(seat)s (%(why)s)."), bot=lambda p, d, t: d.get('bot'),
                       seat=_who, why=_bot_why)),
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
              say=said(N_("The host rolled the game back to step %(step)s (%(reason)s)."),
                       step=lambda p, d, t: d.get('to_step'), reason=_reason)),
    EventKind('GameEnded',
              ('how', 'reason', 'winner'),
              optional=('among', 'by', 'proposal'),
              reduce=_ended,
              say=lambda p, d, t: (_drawn(p, d, t) if d.get('how') == 'draw' else
                                   t.gettext("%(winner)s wins: every other seat conceded (proposal %(proposal)s).") % {
                                       "winner": d.get('winner'), "proposal": d.get('proposal')}
                                   if d.get('by') == 'vote' else
                                   (t.gettext("The host ended the game: %(winner)s wins (%(reason)s).") if d.get('winner')
                                    else t.gettext("The host ended the game: it is abandoned (%(reason)s).")) % {
                                       "winner": d.get('winner'), "reason": _reason(p, d, t)})),
    EventKind('VoteProposed',
              ('expires', 'proposal', 'seat', 'step', 'what'),
              optional=('among', 'days'),
              say=said(N_("%(seat)s proposes %(what)s (proposal %(proposal)s); every seat still in the game votes, and "
                          "only a unanimous yes carries it."), seat=_who, what=_proposed,
                       proposal=lambda p, d, t: d.get('proposal'))),
    EventKind('VoteCast',
              ('proposal', 'seat', 'vote'),
              seen_by='judge'),
    EventKind('VoteDecided',
              ('outcome', 'proposal', 'votes'),
              optional=('why',),
              say=lambda p, d, t: (t.gettext("Proposal %(proposal)s is %(outcome)s (%(why)s): %(votes)s.") if d.get('why')
                                   else t.gettext("Proposal %(proposal)s is %(outcome)s: %(votes)s.")) % {
                  "proposal": d.get('proposal'), "outcome": reason_text(p, d.get('outcome'), t),
                  "why": reason_text(p, d.get('why'), t),
                  "votes": ", ".join(f"{k} {v}" for k, v in sorted((d.get('votes') or {}).items())) or t.gettext("no votes")}),
    EventKind('SeatConceded',
              ('proposal', 'seat'),
              reduce=_conceded,
              writes=('conceded',),
              say=said(N_("%(seat)s concedes: it takes no more decisions (the defaults play for it, as in civil disorder) "
                          "and cannot win; its pieces stay on the map."), seat=_who)),
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

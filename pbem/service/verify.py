"""``pbem verify GAME``: is the event log what the judge wrote?

Checks, each a list of problems (issue 17, finding 13):

- the hash chain (:meth:`pbem.store.Store.verify_chain`); with chain version 2 the
  hash covers ``step`` and ``inbox_id`` too;
- replaying every event from the initial position gives the stored live state;
- the log agrees with the rest of the database: every batch of events (between two
  snapshots) carries the step of the state it was applied to; the newest snapshot is
  taken after the newest event and holds the game's step; every ``inbox_id`` names an
  applied mail of this game at that step, and every applied mail has its events — so
  removing the newest decision together with its snapshot is seen as long as its mail
  is in the inbox;
- each ``witness`` ``HASH@N`` (printed at the foot of every turn report) is in the log:
  event N exists and has that hash — a log cut back behind a report a player holds is
  caught even when the whole database was rewritten;
- for a game of dice version 2 (issue 15, docs/trust.md): the seed against the
  commitment of the first event, every roll and shuffle against the seed and the
  logged orders (the checks of the standalone verifier, :mod:`pbem.verifier.pbem_verify`),
  and a *re-adjudication*: the setup and every decision are carried out again from the
  logged orders with the same dice, and must give exactly the logged events.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem import rules
from pbem.rules.core.events.host import HOST_KINDS
from pbem.rules.dice import Dice, next_context, next_index
from pbem.service.base.context import game_pack
from pbem.service.log import trust
from pbem.store import Store
from pbem.verifier import pbem_verify

_WITNESS = re.compile(r"^([0-9a-f]{64})@(\d+)$")


@dataclass(frozen=True)
class Verified:
    """What :func:`verify_game` found: the number of events and every problem (an
    empty list: the log is intact); ``dice``: the rolls were recomputed and the game
    re-adjudicated (dice version 2)."""

    game_id: str
    events: int
    problems: list[str]
    dice: bool = False

    @property
    def ok(self) -> bool:
        """True when no problem was found."""
        return not self.problems


def parse_witness(text: str) -> tuple[str, int]:
    """``"HASH@N"`` -> (hash, N). Raises ValueError for anything else."""
    m = _WITNESS.match(text.strip().lower())
    if not m:
        raise ValueError(f"not a witness: {text!r} (write the 64 hex digits, '@', the event number)")
    return m.group(1), int(m.group(2))


def verify_game(store: Store, game_id: str, witnesses: Sequence[str] = ()) -> Verified:
    """Check ``game_id``'s log (see the module docstring). The hash chain's problems come
    first; when the chain is broken, what the replay then raises is one more problem.
    Raises KeyError when the game is unknown, ValueError for a malformed witness, and
    what the replay raises on a log whose chain is intact (the CLI reports it)."""
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    marks = [parse_witness(w) for w in witnesses]
    problems = store.verify_chain(game_id)
    try:
        return _verify_rest(store, game_id, game, marks, problems)
    except Exception as exc:
        if not problems:
            raise
        # a row edited without recomputing the chain: the hash mismatch is the finding, named first;
        # what the edit then breaks (e.g. negative CUs in the replay) only follows (issue 25, attempt 5)
        return Verified(game_id, len(store.events(game_id)),
                        [*problems, f"{game_id} cannot be verified past the edit: the replay fails "
                                     f"({type(exc).__name__}: {exc})"])


def _verify_rest(store: Store, game_id: str, game: dict, marks: list[tuple[str, int]],
                 problems: list[str]) -> Verified:
    """:func:`verify_game` after the hash chain (its ``problems``): the replay, the
    consistency, the dice and the witnesses. Raises what a row the judge did not write
    makes the replay raise."""
    pack = game_pack(store, game_id)
    stored = store.events(game_id)
    first, last = store.first_snapshot(game_id), store.snapshot(game_id)
    events = [rules.Event(kind=e.kind, data=e.data, public=e.public, seat=e.seat) for e in stored]
    if first is None or last is None:
        return Verified(game_id, len(events), [*problems, "the game has no snapshot"])
    replayed = rules.fold(rules.GameState.from_dict(first[1], pack), events)
    if replayed.to_dict() != rules.GameState.from_dict(last[1], pack).to_dict():
        problems.append("replaying the log does not give the stored live state")
    problems += _consistency(store, game_id, game, stored, last)
    dice = store.dice_state(game_id)[0] >= 2
    if dice:
        problems += _dice(store, game_id)
        if not problems:
            problems += readjudicate(store, game_id, first[1])
    by_seq = {e.seq: e.hash for e in stored}
    for head, seq in marks:
        if seq not in by_seq:
            problems.append(f"witness {head[:12]}…@{seq}: the log has no event {seq} (it ends at "
                            f"{stored[-1].seq if stored else 0}): events were removed")
        elif by_seq[seq] != head:
            problems.append(f"witness {head[:12]}…@{seq}: event {seq} has another hash: the log was rewritten")
    return Verified(game_id, len(events), problems, dice)


def _consistency(store: Store, game_id: str, game: dict, stored: list, last: tuple[int, dict]) -> list[str]:
    """Steps, snapshots and inbox ids against the log."""
    problems: list[str] = []
    last_seq = stored[-1].seq if stored else 0
    if last[0] != last_seq:
        problems.append(f"the newest snapshot is taken after event {last[0]}, but the log ends at {last_seq}")
    if last[1].get("step") != game["step"]:
        problems.append(f"the game is at step {game['step']} but its newest snapshot at {last[1].get('step')}")
    bounds = store.snapshot_steps(game_id)
    for e in stored:
        before = max((seq for seq in bounds if seq < e.seq), default=None)
        if before is not None and bounds[before] >= 0 and e.step != bounds[before]:
            problems.append(f"event {e.seq} is stored with step {e.step}, but it was applied at step {bounds[before]}")
    applied = {r["id"]: r for r in store.applied_mail(game_id)}
    linked = {e.inbox_id for e in stored if e.inbox_id is not None}
    for e in stored:
        row = applied.get(e.inbox_id) if e.inbox_id is not None else None
        if e.inbox_id is not None and (row is None or row["step"] != e.step):
            problems.append(f"event {e.seq} names inbox row {e.inbox_id}, which is not a mail applied at step {e.step}")
    for iid in sorted(set(applied) - linked):
        problems.append(f"inbox row {iid} was applied at step {applied[iid]['step']}, but the log has none of its "
                        "events: the log was cut back")
    return problems[:50]


#: the judge's own entries (pbem.rules.core.events.judge): not the rules' output
JUDGE_KINDS = ("SeedCommitted", "OrdersAccepted", "SeedRevealed", "SeatChanged", "GameAbandoned",
               *HOST_KINDS)


#: judge kinds that change the position (a host's rollback or end, issue 16; a seat's
#: concession, issue 29, which takes it out of the contest for victory): the
#: re-adjudication folds them where they stand in the log
MOVING_KINDS = ("StateRestored", "GameEnded", "SeatConceded")


def _dice(store: Store, game_id: str) -> list[str]:
    """The standalone verifier's seed and dice checks on the whole log (the database
    holds the seed and every private event)."""
    game = store.game(game_id)
    assert game is not None
    lines = trust.log_lines(store, game_id, reveal=True)
    seed = bytes.fromhex(game["seed"])
    report = pbem_verify.Report(game_id, events=len(lines))
    pbem_verify.check_seed(report, trust.game_meta(store, game_id, lines, reveal=True), lines, seed)
    pbem_verify.check_dice(report, lines, seed)
    return [str(p) for p in report.problems]


@dataclass
class _Rollback:
    """A host's position change in the log: the ``StateRestored`` or ``GameEnded``
    (``moved``), the step its batch is stored with, and the rules' events logged right
    after a ``StateRestored`` (the reshuffle of the unseen deck)."""

    moved: rules.Event
    step: int
    after: list[rules.Event]


@dataclass
class _Dice:
    """What re-making a rollback's reshuffle needs: the seed, the dice version and the
    orders context of the decision it follows."""

    seed: bytes
    version: int
    context: str


def readjudicate(store: Store, game_id: str, initial: dict) -> list[str]:
    """Carry the game out again from the log (dice version 2): the setup from the seed
    and the options, then each ``OrdersAccepted`` document with the dice of its orders
    context; each must give exactly the logged events (the judge's own entries left
    aside; a host's ``StateRestored`` and ``GameEnded`` are folded in where they stand,
    and the reshuffle of the unseen deck after a ``StateRestored`` is made again, so a
    rolled-back game is re-adjudicated along the log). Returns the first difference found, as a one-item list (empty: the same)."""
    game = store.game(game_id)
    assert game is not None
    pack = game_pack(store, game_id)
    seed = bytes.fromhex(game["seed"])
    stored = [e for e in store.events(game_id)]
    groups: list[tuple[dict | None, list[rules.Event], list[_Rollback]]] = [(None, [], [])]
    for e in stored:
        ev = rules.Event(e.kind, e.data, e.public, e.seat)
        if e.kind == "OrdersAccepted":
            groups.append((dict(e.data), [], []))
        elif e.kind in MOVING_KINDS:  # the host's own position changes: folded, not re-made
            groups[-1][2].append(_Rollback(ev, e.step, []))
        elif e.kind not in JUDGE_KINDS:
            (groups[-1][2][-1].after if groups[-1][2] else groups[-1][1]).append(ev)
    options = json.loads(game["options"] or "{}")
    state, events = rules.new_game(pack, seed, options)
    problem = _differ("the setup", events, groups[0][1])
    if problem:
        return [problem]
    first: dict[int, str] = {}
    dice = _Dice(seed, store.dice_state(game_id)[0], pbem_verify.START_CONTEXT)
    state, problem = _fold_restores(rules.GameState.from_dict(initial, pack), groups[0][1], groups[0][2], first,
                                    dice)
    if problem:
        return [problem]
    for document, logged, moved in groups[1:]:
        assert document is not None
        dice.context = next_context(dice.context, document)
        what = f"the orders of {document.get('seat')} at step {document.get('step')}"
        try:
            _new, events = rules.apply(state, document["seat"], document["orders"],
                                       Dice(seed, state.step, context=dice.context))
        except Exception as exc:  # noqa: BLE001 - a log the rules refuse is a finding, not a crash
            return [f"re-adjudicating {what} fails: {type(exc).__name__}: {exc}"]
        problem = _differ(what, events, logged)
        if problem:
            return [problem]
        state, problem = _fold_restores(state, logged, moved, first, dice)
        if problem:
            return [problem]
    return []


def _position(state: dict[str, Any]) -> str:
    """A position as canonical JSON, its step number left out (a rollback renumbers it)."""
    return json.dumps({k: v for k, v in state.items() if k != "step"}, sort_keys=True, default=str)


def _fold_restores(state: rules.GameState, logged: Sequence[rules.Event], moved: Sequence[_Rollback],
                   first: dict[int, str], dice: _Dice) -> tuple[rules.GameState, str | None]:
    """Fold a group's re-made events, then the host's ``StateRestored``/``GameEnded``
    (``moved``), noting in ``first`` the position each step was first waited on at
    (``{step: canonical JSON}``). A ``StateRestored`` must bring back exactly the
    position its ``to_step`` was first waited on at (docs/trust.md "Rollback and the
    dice"): a judge that restored a doctored position — a hand or the deck re-stacked —
    would otherwise pass with the chain recomputed (issue 25, break-it finding 1). The
    events after it must be the reshuffle of the unseen deck made again with the dice
    that follow the decision's (:func:`pbem.service.play.endgame.rollback_dice`): a
    judge that left the deck in the order the abandoned branch drew from, or stacked
    it, fails (issue 25, third break-it pass, finding 2).
    Returns the new state and the problem found (None: none)."""
    state = rules.fold(state, logged)
    first.setdefault(state.step, _position(state.to_dict()))
    drawn = list(logged)  # the decision's events so far: where its dice stand
    for rb in moved:
        ev = rb.moved
        if ev.kind == "StateRestored":
            to_step = ev.data.get("to_step")
            was = first.get(to_step) if isinstance(to_step, int) else None
            if was is None:
                return state, (f"the rollback to step {to_step} restores a step the log never waited at")
            if _position(dict(ev.data.get("state") or {})) != was:
                return state, (f"the rollback to step {to_step} restores another position than the one "
                               f"step {to_step} was first waited on at (a hand, the deck or the board differs)")
            state = rules.fold(state, [ev])
            made = rules.reshuffle_deck(state, Dice.resumed(dice.seed, rb.step, next_index(drawn),
                                                             context=dice.context, version=dice.version))[1]
            problem = _differ(f"the reshuffle of the unseen deck after the rollback to step {to_step}", made,
                              rb.after)
            if problem:
                return state, problem
            drawn += rb.after
            state = rules.fold(state, rb.after)
        elif rb.after:
            return state, (f"the log holds {len(rb.after)} events of the rules after the host's {ev.kind} "
                           f"({rb.after[0].kind} first) that no decision made")
        else:
            state = rules.fold(state, [ev])
        first.setdefault(state.step, _position(state.to_dict()))
    return state, None


def _differ(what: str, made: Sequence[rules.Event], logged: Sequence[rules.Event]) -> str | None:
    """Where the events carried out again first differ from the logged ones (None: the same)."""
    for i, (a, b) in enumerate(zip(made, logged, strict=False)):
        if (a.kind, json.loads(json.dumps(a.data)), a.public, a.seat) != (b.kind, b.data, b.public, b.seat):
            return (f"re-adjudicating {what} gives another event {i + 1}: {a.kind} {dict(a.data)} instead of the "
                    f"logged {b.kind} {dict(b.data)}")
    if len(made) != len(logged):
        return f"re-adjudicating {what} gives {len(made)} events, the log holds {len(logged)}"
    return None

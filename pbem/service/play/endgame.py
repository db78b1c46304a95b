"""The host commands that change the position (issue 16): ``end`` and ``rollback``,
run through :func:`pbem.service.commands.host_commands.run` (CLI ``pbem host end|rollback GAME``, or by
mail with the host key).

``end`` (``winner: east`` with a ``reason``, or ``abandon: true``): ``GameEnded`` (its
reducer sets the state's ``result`` with ``rule: host`` and the phase ``over``) and
``SeedRevealed`` in one batch, the game's status ``over`` (a winner) or ``abandoned``,
every open deadline closed, every seat sent a report with the result and the seed
(:func:`pbem.service.log.trust.mail_seed`), exactly as a game that ends by the rules; orders
after it are refused with ``game.over``; ``pbem archive`` then reveals the whole log.

``rollback`` (``to_step: N`` with a ``reason``): the position of step N comes back as
*new* events, nothing in the log is changed or removed: ``StateRestored`` (judge-only:
it holds the whole state, hands and deck included; its data is hidden in the archive
until the game is over) and ``RollbackAnnounced`` (public). The restored position is the
first snapshot of step N (the position when step N was first waited on) with its step
number set to the live step + 1: the step counter only goes forward, so no step number,
deadline row, prompt or report subject is used twice. The dice context
(:mod:`pbem.rules.dice`) is *not* rewound: it chains on every accepted orders document,
the abandoned branch's included, so the redone decisions draw from new contexts (and at
new step numbers) even when the same orders are sent again (docs/trust.md). Every open
deadline is closed, each seat gets a report of the restored position in its own view
and the restored step's prompts with new deadlines. The standing orders are part of the
position: a seat whose standing orders it sets back gets ``StandingRestored`` (its own,
in its report: the orders now in force and the ``seq:`` the next ones need); the seats'
``seq`` counters stay where they are (issue 25.9). The restored deck's order is the one
the abandoned branch drew from, so a seat that drew there would know what another
draws next: right after ``StateRestored`` the unseen Tyche deck is shuffled again
(:func:`pbem.rules.reshuffle_deck`: ``Shuffled``, ``DeckShuffled``, a public ``Note``)
with the dice that follow the last decision's (:func:`rollback_dice`), which ``pbem
verify`` recomputes (issue 25, third break-it pass, finding 2).
"""
from __future__ import annotations

import gettext
from typing import Any

from pbem import i18n, rules
from pbem.rules.dice import Dice, next_index
from pbem.service.base.context import Service
from pbem.service.base.refusal import Refused
from pbem.service.log import trust
from pbem.service.play import reports


def _close_deadlines(judge: Service, game_id: str) -> int:
    """Close every open deadline of the game; how many were open."""
    now = judge.clock().isoformat()
    rows = judge.store.open_deadlines(game_id)
    for d in rows:
        judge.store.expire_deadline(game_id, d["step"], d["seat"], now)
    return len(rows)


def _append(judge: Service, game_id: str, events: list[rules.Event], status: str | None = None) -> rules.GameState:
    """Append ``events`` (they change the position) as one batch stored with the live
    step, the state after them as its snapshot, the game's step (and ``status``) set;
    return the new state. Call inside a transaction."""
    store = judge.store
    state = judge.state(game_id)
    new = rules.fold(state, events)
    seq = store.append_events(game_id, [e.to_dict() for e in events], step=state.step)
    store.save_snapshot(game_id, seq, new.step, new.to_dict())
    store.set_game_step(game_id, new.step, status=status)
    return new


def append_events(judge: Service, game_id: str, events: list[rules.Event]) -> rules.GameState:
    """Append table events that change the state but not the game's step (a
    ``SeatConceded``, issue 29), folded by their reducers, with the state after them as
    the snapshot; return it. Call inside a transaction."""
    return _append(judge, game_id, events)


def end_game(judge: Service, game_id: str, winner: str | None, abandon: bool, reason: str
             ) -> tuple[i18n.Localizable, str | None]:
    """The host ends ``game_id`` (module docstring): ``winner`` a seat, or ``abandon``.
    Returns (receipt text, a function of the host's translations object; log witness).
    Raises ValueError (:class:`~pbem.service.base.refusal.Refused`: said in the host's language,
    issue 28), saying what to write, when neither or both are given or the winner is no seat. Call inside a
    transaction."""
    seats = [r["seat"] for r in judge.store.seats(game_id)]
    if abandon == bool(winner):
        raise Refused(lambda tr: tr.gettext("end needs the result: `winner: east` (with `reason:`), or "
                                            "`abandon: true`"))
    if winner and winner not in seats:
        raise Refused(lambda tr: tr.gettext("winner %(winner)s is no seat of %(game)s; the seats are %(seats)s") % {
            "winner": repr(winner), "game": game_id, "seats": ", ".join(seats)})
    how = "abandon" if abandon else "win"
    ended = rules.judge_event("GameEnded", {"how": how, "reason": reason, "winner": winner})
    events = [ended, trust.seed_revealed(judge.store, game_id)]
    before = judge.state(game_id)
    _close_deadlines(judge, game_id)
    state = _append(judge, game_id, events, status="abandoned" if abandon else "over")
    reports.queue_reports(judge, game_id, judge.pack_for(game_id), state, events,  # each seat's language
                          headline=lambda tr: tr.gettext("the host ended the game: %(result)s") % {
                              "result": tr.gettext("%(seat)s wins") % {"seat": winner} if winner
                              else tr.gettext("the game is abandoned")}, step=before.step, before=before)

    def result(tr: gettext.NullTranslations) -> str:  # the reader's language (issue 28)
        return (tr.gettext("%(seat)s wins") % {"seat": winner} if winner
                else tr.gettext("the game is abandoned"))

    trust.mail_seed(judge, game_id, lambda tr: (
        tr.gettext("was ended by its host (%(result)s: %(reason)s)") % {"result": result(tr), "reason": reason}
        if reason else tr.gettext("was ended by its host (%(result)s)") % {"result": result(tr)}))
    head = trust.witness(judge.store, game_id)

    def text(tr: gettext.NullTranslations) -> str:
        values = {"game": game_id, "result": result(tr), "reason": reason}
        return ((tr.gettext("Game %(game)s is over: %(result)s (%(reason)s).") if reason
                 else tr.gettext("Game %(game)s is over: %(result)s.")) % values + " "
                + tr.gettext("Every seat is sent the result and the dice seed; no deadline is open. `pbem archive` "
                             "now shows the whole log."))
    return text, head


def end_by_vote(judge: Service, game_id: str, proposal: int, among: list[str] | None = None,
                winner: str | None = None) -> str | None:
    """The seats ended ``game_id`` by vote (issue 29, :mod:`pbem.service.play.votes`): a
    draw among ``among``, or ``winner`` wins because every other seat conceded.
    ``GameEnded`` (``by: vote``; its reducer sets the state's ``result`` with ``rule:
    vote``, and the seats of a draw) and ``SeedRevealed`` in one batch, the game's status
    ``over``, every open deadline closed, every seat sent a report with the result and
    the seed, as the host's ``end`` does. Returns the log witness. Call inside a
    transaction."""
    data: dict[str, Any] = ({"how": "win", "winner": winner} if winner else
                            {"how": "draw", "winner": None, "among": list(among or [])})
    ended = rules.judge_event("GameEnded", {**data, "reason": f"agreed by vote (proposal {proposal})",
                                            "by": "vote", "proposal": proposal})
    events = [ended, trust.seed_revealed(judge.store, game_id)]
    before = judge.state(game_id)
    _close_deadlines(judge, game_id)
    state = _append(judge, game_id, events, status="over")
    reports.queue_reports(judge, game_id, judge.pack_for(game_id), state, events,
                          headline=lambda tr: (tr.gettext("the seats agreed a draw among %(seats)s") % {
                              "seats": ", ".join(among or [])} if not winner else tr.gettext(
                              "%(seat)s wins: every other seat conceded") % {"seat": winner}), step=before.step,
                          before=before)
    trust.mail_seed(judge, game_id, lambda tr: (
        tr.gettext("was ended by the seats' vote (%(seat)s wins: every other seat conceded)") % {"seat": winner}
        if winner else tr.gettext("was ended by the seats' vote (a draw among %(seats)s)") % {
            "seats": ", ".join(among or [])}))
    return trust.witness(judge.store, game_id)


def first_snapshot_of_step(judge: Service, game_id: str, step: int) -> dict[str, Any] | None:
    """The state dict of the game's first snapshot at ``step`` (the position when the
    step was first waited on), or None when no snapshot has that step."""
    return judge.store.first_snapshot_at_step(game_id, step)


def rollback(judge: Service, game_id: str, to_step: int | None, reason: str
             ) -> tuple[i18n.Localizable, str | None]:
    """Roll ``game_id`` back to the position of ``to_step`` (module docstring). Returns
    (receipt text, log witness). Raises ValueError (``Refused``, in the host's language), saying what to
    write, for a paused game, a missing step, a step not before the live one, or one the game never had.
    Call inside a transaction."""
    live = judge.state(game_id)
    if (judge.store.game(game_id) or {}).get("status") == "paused":
        # resuming moves every open deadline by the whole pause, the restored ones too
        raise Refused(lambda tr: tr.gettext("%(game)s is paused: send `command: resume` first, then the rollback")
                      % {"game": game_id})
    if isinstance(to_step, bool) or not isinstance(to_step, int):
        raise Refused(lambda tr: tr.gettext(  # a refusal told to the host, not a programming error
            "rollback needs the step to go back to: `to_step: N` (a step before %(step)s; `command: status` "
            "shows the step now)") % {"step": live.step})
    if live.step == 0:  # break16: the refusal said "write a step from 0 to -1"
        raise Refused(lambda tr: tr.gettext("%(game)s is at its first step (0): there is no earlier step to go "
                                            "back to") % {"game": game_id})
    if not 0 <= to_step < live.step:
        raise Refused(lambda tr: tr.gettext("to_step %(to_step)s is not an earlier step: the game is at step "
                                            "%(step)s; write a step from 0 to %(last)s") % {
            "to_step": to_step, "step": live.step, "last": live.step - 1})
    old = first_snapshot_of_step(judge, game_id, to_step)
    if old is None:
        raise Refused(lambda tr: tr.gettext("%(game)s never waited at step %(to_step)s (a step may be skipped); "
                                            "write a step a report of yours names") % {
            "game": game_id, "to_step": to_step})
    restored = {**old, "step": live.step + 1}
    data = {"from_step": live.step, "reason": reason, "to_step": to_step}
    _state, reshuffled = rules.reshuffle_deck(rules.GameState.from_dict(restored, judge.pack_for(game_id)),
                                             rollback_dice(judge, game_id, live.step))
    events = [rules.judge_event("StateRestored", {**data, "state": restored}), *reshuffled,
              rules.judge_event("RollbackAnnounced", data),
              *_standing_restored(judge, game_id, live, restored, to_step)]
    _close_deadlines(judge, game_id)
    state = _append(judge, game_id, events)
    pack = judge.pack_for(game_id)
    reports.queue_reports(judge, game_id, pack, state, events[1:],
                          headline=lambda tr: tr.gettext("rolled back to the position of step %(step)s") % {
                              "step": to_step}, before=live)
    reports.queue_prompts(judge, game_id, pack, state)
    head = trust.witness(judge.store, game_id)
    waited = ", ".join(sorted({d.seat for d in rules.pending(state)}))

    def text(tr: gettext.NullTranslations) -> str:  # the host's language (issue 28)
        return tr.gettext(
            "Game %(game)s is back at the position of step %(to_step)s, now numbered step %(step)s (no step number "
            "is used twice). Every seat is sent the position in its own view; the game waits for %(waited)s. The "
            "standing orders are those of step %(to_step)s too: a seat whose standing orders this changed is told "
            "so in its own report (the ones it sent later need a new `seq:`). The unseen Tyche deck is shuffled "
            "again with logged dice, so no card drawn in the abandoned steps comes round in the same order; the "
            "hands and the discards stay as they were.") % {"game": game_id, "to_step": to_step, "step": state.step,
                                                              "waited": waited or tr.gettext("no seat")}
    return text, head


def rollback_dice(judge: Service, game_id: str, step: int) -> Dice:
    """The dice of a rollback's reshuffle of the unseen deck (docs/trust.md "Rollback and
    the dice"): those of the game's seed and orders context that follow the last
    decision's dice (:func:`pbem.rules.dice.next_index` over the log), at ``step``, the
    live step the rollback is taken at. Each rollback is taken at a step of its own (the
    step counter only goes forward) after the dice of every one before it, so no two
    rollbacks, even to the same step, shuffle alike; the verifier recomputes them."""
    game = judge.store.game(game_id)
    assert game is not None
    version, context = judge.store.dice_state(game_id)
    index = next_index(judge.store.events(game_id))
    return Dice.resumed(bytes.fromhex(game["seed"]), step, index, context=context, version=version)


def _standing_restored(judge: Service, game_id: str, live: rules.GameState, restored: dict[str, Any],
                       to_step: int) -> list[rules.Event]:
    """One ``StandingRestored`` (seen by its seat only) for each seat whose standing
    orders (R-9.3) the rollback sets back: those of step ``to_step`` with the ``seq:``
    the next ones need (issue 25.9: they were dropped without a word, and the seat's
    re-sent mail was refused as stale). The seat's ``seq`` counter is not rewound: an
    old standing-orders mail sent again stays refused, whoever sends it."""
    out = []
    for row in judge.store.seats(game_id):
        seat = row["seat"]
        now = list(live.private.get(seat, {}).get("standing", []))
        back = list((restored.get("private") or {}).get(seat, {}).get("standing", []))
        if now != back:
            out.append(rules.judge_event("StandingRestored", {
                "next_seq": judge.store.standing_seq(game_id, seat) + 1, "seat": seat, "standing": back,
                "to_step": to_step}))
    return out


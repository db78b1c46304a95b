"""Issue 29's trial, finding 5: a seat that conceded by the table's vote must not win
([D] docs/rules.md, "Votes and concession"): the end-of-game ranking (R-1.2) puts it
after every seat still in the game whatever its VP, it claims no automatic victory
(R-1.1) and wins no regency (R-1.3); its pieces and its VP stay."""
from __future__ import annotations

from pbem import rules
from pbem.rules.context import Ctx
from pbem.rules.core.control import victory_points
from pbem.rules.phases import victory
from pbem.rules.core.state import SEATS, GameState


def _conceded(state: GameState, seat: str) -> GameState:
    return rules.fold(state, [rules.judge_event("SeatConceded", {"proposal": 1, "seat": seat})])


def _ended(state: GameState) -> dict:
    """The ``GameWon`` the end of the last turn gives (R-1.2) on ``state``."""
    s = state.to_dict()
    ctx = Ctx(state.pack, s, rules.Dice(b"conceded", state.step))
    victory.final_scoring(ctx)
    won = [e for e in ctx.events if e.kind == "GameWon"]
    assert len(won) == 1
    return won[0].data


def test_a_conceded_seat_with_the_most_vp_does_not_win_the_end_of_game(pack) -> None:  # noqa: ANN001
    state, _events = rules.new_game(pack, b"conceded seat")
    leader = victory.ranking(pack, state.to_dict())[0][0]
    vp = victory_points(pack, state.to_dict())
    assert all(vp[leader] >= vp[x] for x in SEATS)
    assert _ended(state)["winner"] == leader  # without the concession the leader wins

    after = _conceded(state, leader)
    assert after.to_dict()["conceded"] == [leader]
    assert after.to_dict()["cus"] == state.to_dict()["cus"]  # its pieces stay
    won = _ended(after)
    others = [x for x, _ in victory.ranking(pack, state.to_dict()) if x != leader]
    assert won["winner"] == others[0] != leader  # the best of the others
    assert won["ranking"] == [*others, leader] and won["conceded"] == [leader]
    assert won["vp"][leader] == vp[leader]  # its score is still counted and shown


def test_a_conceded_seat_claims_no_automatic_victory(pack, monkeypatch) -> None:  # noqa: ANN001
    real = victory.const
    monkeypatch.setattr(victory, "const", lambda p, key: 0 if key in ("auto_victory_vp", "auto_victory_from_turn")
                        else real(p, key))  # every seat meets the threshold
    state, _events = rules.new_game(pack, b"conceded claim")
    assert set(victory.auto_victory_kinds(pack, state.to_dict()).values()) == {"vp"}
    after = _conceded(state, "north")
    assert victory.auto_victory_kinds(pack, after.to_dict()) == {"north": None, "east": "vp", "south": "vp",
                                                                  "west": "vp"}


def test_no_concession_leaves_the_state_dict_as_before(pack) -> None:  # noqa: ANN001
    state, _events = rules.new_game(pack, b"no concession")
    assert "conceded" not in state.to_dict()  # snapshots of games without a concession are unchanged
    assert GameState.from_dict(state.to_dict(), pack) == state

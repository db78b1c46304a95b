"""Issue 24 (fix24d), through the judge's mail path: places listed for a training that
finishes no unit are refused with what is wrong ("no unit finishes training …, so
nothing can be placed") and a fix, not "this places at most 0 trained units"."""
from __future__ import annotations

from tests.conftest import KEYS
from tests.service.test_issue24_low import flat, replies, send, turn  # noqa: F401 (fixture)


def test_places_for_a_training_that_finishes_nothing(turn) -> None:  # noqa: ANN001, F811
    judge, seat, step, hand = turn
    pack = judge.state("g1").pack
    card = next(n for n in hand if (pack.cards[n].ops or 0) >= 1 and pack.cards[n].type != "surprise")
    body = (f"game: g1\nseat: {seat}\nkey: {KEYS[seat]}\nstep: {step}\norders:\n"
            f"  tyche: {{card: {card}, use: train, train: [{{unit: phalangite, ops: 1}}], place: [Pella]}}\n"
            f"  movement: none\n")
    assert send(judge, seat, body) == "rejected"
    answer = flat(replies(judge, f"{seat}@pbem.localhost")[-1])
    assert "code: tyche.nothing_to_place" in answer, answer
    assert "no unit finishes training with this card's OPs, so nothing can be placed (R-8.4)" in answer, answer
    assert "fix: leave out place:" in answer, answer
    assert "at most 0" not in answer, answer

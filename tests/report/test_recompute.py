"""A player can recompute every battle from the report (issue 13): the battle line names
every term of each side's numbers — the CUs by type and strength, elephants' chart
results, independent armies, local troops — the dice and the leader's rating that floors
them, and the chart's row and column; the turn-order tie says who rolled what and that
play then goes clockwise.

Issue 24 item 9: the wording reads right — the dice are the dice, a rating above them
counts instead of them ("below Antigonus's battle rating 5, which counts instead"), a
rating below them changes nothing ("above Craterus's battle rating 6"), the row read is
named with why (the dice or the rating); a tie's re-roll is told apart from the first
roll."""
from __future__ import annotations

import re

import pytest

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.report.narrate import narrate
from tests.report.gamestore import war_games

SIDE = re.compile(r"(\w+): strength (\d+)(?: = ([^;]+))?; dice ([\d+]+)(?: = (\d+))?(?: \(re-rolled with .+?, R-8\.5\))?"
                  r", (?:below (?:the battle rating of [^;]+?|[^;]+?'s battle rating) (\d+), which counts instead|(above|equal to) "
                  r"(?:the battle rating of [^;]+?|[^;]+?'s battle rating) (\d+)|no battle rating \(no general\)); battle chart row (\d+) \((the dice|the rating)\), "
                  r"column (\d+) \(the strength(?:, at least 1)?\): score (\d+)")


@pytest.fixture(scope="module")
def pack():
    return load_pack()


def _term_value(term: str) -> int:
    term = term.strip()
    if m := re.fullmatch(r"(\d+) .+ x (\d+)", term):
        return int(m.group(1)) * int(m.group(2))
    if m := re.fullmatch(r"\d+ .+ (\d+) \(elephant chart ([\d+?]+)\)", term):
        assert m.group(2) == "?" or sum(int(v) for v in m.group(2).split("+")) == int(m.group(1)), term
        return int(m.group(1))
    if m := re.fullmatch(r"local troops (\d+)", term):
        return int(m.group(1))
    if m := re.fullmatch(r".+ (\d+)", term):  # an independent army and its strength
        return int(m.group(1))
    raise AssertionError(term)


def test_every_battle_line_adds_up(pack) -> None:
    battles = 0
    for _state, events in war_games(pack, "recompute", 4, rng_base=40):
        for e in events:
            if e.kind != "BattleFought" or not isinstance(e.data.get("sides"), list):
                continue
            text = narrate(pack, e)
            sides = SIDE.findall(text)
            assert len(sides) == 2, text
            for (seat, strength, terms, dice, total, raised, above, rating, row, why, column, score), rec in zip(
                    sides, e.data["sides"], strict=True):
                values = [_term_value(t) for t in terms.split(" + ")] if terms else []
                assert sum(values) == int(strength), text
                rolled = sum(int(v) for v in dice.split("+"))
                assert not total or int(total) == rolled, text
                if raised:  # the rating counts instead of a lower roll
                    assert rolled < int(raised) == int(row) and why == "the rating", text
                else:
                    assert int(row) == rolled and why == "the dice", text
                    assert not rating or (rolled > int(rating) if above == "above" else rolled == int(rating)), text
                assert int(row) == rec["roll"], text
                assert int(column) == max(1, int(strength)) and int(score) == rec["score"], text
                assert seat == rec["side"]
            battles += 1
    assert battles >= 3


def test_an_independent_army_shows_its_local_troops(pack) -> None:
    e = rules.Event("BattleFought", {
        "space": "mazaca", "attacker": "south", "defender": "independent", "result": "attacker",
        "winner": "south", "rule": "R-9.2",
        "sides": [{"side": "south", "cus": {"loyal": 6}, "commander": "craterus", "cus_strength": 12,
                   "local_troops": 0, "strength": 12, "dice": [4, 6], "rating": 6, "roll": 10, "score": 9,
                   "read": {"chart": "battle", "row": 10, "column": 12, "result": 9}},
                  {"side": "independent", "armies": {"ariarathes": 5}, "cus_strength": 5, "local_troops": 1,
                   "strength": 6, "dice": [1, 1], "rating": 3, "roll": 3, "score": 2,
                   "read": {"chart": "battle", "row": 3, "column": 6, "result": 2}}]})
    text = narrate(pack, e)
    assert "strength 6 = Ariarathes of Cappadocia 5 + local troops 1" in text
    assert ("dice 1+1 = 2, below the battle rating of Ariarathes of Cappadocia 3, which counts instead; "
            "battle chart row 3 (the rating), column 6 (the strength): score 2") in text
    # a rating under the dice does not cap them (issue 24 item 9: "(Craterus's battle rating 6 is lower)")
    assert "6 loyal x 2" in text and ("dice 4+6 = 10, above Craterus's battle rating 6; battle chart row 10 "
                                      "(the dice), column 12 (the strength): score 9") in text
    assert "is lower" not in text and "south wins, score 9 against 2" in text


def test_a_turn_order_tie_is_resolved_in_words(pack) -> None:
    e = rules.Event("TurnOrderChooserNamed", {"seat": "south", "vp": {s: 0 for s in rules.SEATS},
                                              "rolls": {"north": 1, "east": 1, "south": 5, "west": 3},
                                              "rule": "R-6.1"})
    text = narrate(pack, e)
    assert "north 1, east 1, south 5, west 3" in text and "south names the first player" in text
    assert "clockwise" in text

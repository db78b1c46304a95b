"""Report wording a new reader stumbled on: ids in dice lines, "goes to the dispersed",
a move "ended" by an army that was wiped out, move lines without the general, "(1 OPs)",
"The Ariarathes of Cappadocia", a cut-off seed commitment."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.report import build, context
from pbem.report.narrate import card_label, narrate
from tests.report.gamestore import war_games

RULES = Path(__file__).resolve().parents[2] / "pbem" / "rules"
COMMITMENT = "5c9de4d1c25016d49497bbdf58c0cd9f7754535049c6be153ca7c71cdb5f3522"
SEATS_ROWS = [{"seat": s, "player": s.title()} for s in rules.SEATS]
TABLES = ("spaces", "generals", "royals", "independent_armies", "fleets", "special_units", "provinces")


@pytest.fixture(scope="module")
def pack():
    return load_pack()


def _ev(kind: str, **data) -> rules.Event:
    return rules.Event(kind, data)


def test_dice_purposes_show_printed_names(pack) -> None:
    for purpose, want in [("battle in isaura: attacker (east)", "battle in Isaura: attacker (east)"),
                          ("leader loss check of leonnatus", "leader loss check of Leonnatus"),
                          ("attrition of east's loyal CUs in isaura", "attrition of east's loyal CUs in Isaura"),
                          ("interception by north from gaza into pelusium",
                           "interception by north from Gaza into Pelusium"),
                          ("elephants of independent in syrian_gates", "elephants of independent in Syrian Gates")]:
        info = context.roll_info(_ev("DiceRolled", purpose=purpose, rule="R-9.2", values=[3], sides=6), pack)
        assert info["purpose"] == want
        assert context.roll_text(info).startswith(f"Dice 1d6: 3 for {want} (R-9.2)")
    # capitalised words (card and space names already printed) stay as they are
    info = context.roll_info(_ev("DiceRolled", purpose="unrest (Side Effects)", values=[1]), pack)
    assert info["purpose"] == "unrest (Side Effects)"


def test_no_pack_id_is_a_word_of_a_roll_purpose(pack) -> None:
    """The literal words of every ``ctx.roll(n, purpose, rule)`` of the rules core (the
    placeholders aside) are no pack id, so replacing ids by names cannot garble them."""
    words: set[str] = set()
    for f in RULES.rglob("*.py"):
        src = f.read_text()
        for call in re.finditer(r"ctx\.roll\(", src):
            m = re.search(r'f?"([^"]*)"\s*,\s*(?:"R-[^"]*"|rule)\s*\)', src[call.end():call.end() + 300])
            assert m, src[call.start():call.start() + 200]
            words |= set(re.findall(r"[a-z0-9_]+", re.sub(r"\{[^}]*\}", " ", m.group(1))))
    assert {"battle", "attrition", "leader", "interception"} <= words
    # values the placeholders take that are not ids: seats, sides, CU types, labels
    words |= set(rules.SEATS) | {"independent", "attacker", "defender", "declarer", "mover"}
    words |= set(pack.cu_types)
    ids = {k for t in TABLES for k in getattr(pack, t)}
    assert not words & ids


def _war_reports(pack, games: int = 4):
    return war_games(pack, "wording", games, rng_base=100)


def test_war_game_dice_lines_show_no_ids(pack) -> None:
    raw = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(sorted(set(pack.spaces) | set(pack.generals), key=len,
                                                               reverse=True)) + r")(?![A-Za-z0-9_])")
    dice_lines = 0
    for state, events in _war_reports(pack):
        if not any(e.kind == "DiceRolled" for e in events):
            continue
        rep = build.render_report(pack, state, events, game_id="g", step=state.step, seat=None,
                                  seats=SEATS_ROWS, headline="h", seed_commitment=COMMITMENT)
        for h in context.happenings(pack, events):
            if h["roll"]:
                dice_lines += 1
                assert not raw.search(h["text"]), h["text"]
                assert not raw.search(h["roll"]["purpose"]), h["roll"]["purpose"]
        # the rendered text: each numbered dice entry (with its wrapped lines)
        for entry in re.findall(r"^ *\d+\. Dice .*(?:\n {4}.*)*", rep.text, re.MULTILINE):
            assert not raw.search(entry), entry
        for li in re.findall(r'<li class="roll">.*?</li>', rep.html, re.DOTALL):
            assert not raw.search(li), li
    assert dice_lines > 10


def test_dispersed_general_goes_to_the_dispersed_box(pack) -> None:
    text = narrate(pack, _ev("GeneralPlaced", general="antigonus", seat="east", where="dispersed", space=None))
    assert text == "Antigonus goes to the dispersed box."
    assert narrate(pack, _ev("GeneralPlaced", general="demetrius", seat=None, where="track",
                             space=None)) == "Demetrius waits on the turn track."
    for where in ("dead", "deck", "box", "map"):
        text = narrate(pack, _ev("GeneralPlaced", general="demetrius", seat=None, where=where, space=None))
        assert not re.search(r"goes to the (dead|deck|box|map)\.$", text), text


def test_move_of_a_wiped_out_army_does_not_end_on_the_map(pack) -> None:
    events = [_ev("ArmyMoved", seat="east", **{"from": "iconium"}, to="isaura", path=["iconium", "isaura"],
                  cus={"loyal": 2}, generals=["antigonus"], minor=False, royals=[], rule="R-9.1"),
              _ev("BattleFought", space="isaura", attacker="east", defender="south", winner="south"),
              _ev("GeneralPlaced", general="antigonus", seat="east", where="dispersed", space=None),
              _ev("MoveEnded", seat="east", army="iconium", space="isaura", rule="R-9.1")]
    texts = [h["text"] for h in context.happenings(pack, events)]
    assert "Antigonus goes to the dispersed box." in texts
    assert "east's army ends its move in Isaura." not in texts
    assert texts[-1] == "east's move ends in Isaura, where its army was wiped out."
    # an army that survives still ends its move
    texts = [h["text"] for h in context.happenings(pack, [events[0], events[3]])]
    assert texts[-1] == "east's army ends its move in Isaura."


def test_move_lines_name_the_army_by_its_commander(pack) -> None:
    base = {"seat": "south", "from": "dascylium", "to": "synnada", "path": ["dascylium", "synnada"],
            "cus": {"loyal": 2, "mercenary": 3}, "minor": False, "royals": [], "rule": "R-9.1"}
    assert narrate(pack, _ev("ArmyMoved", **base, generals=["ptolemy"])) == \
        "south moves Ptolemy's army Dascylium -> Synnada with 2 loyal, 3 mercenary."
    g = pack.generals
    low, high = sorted(["ptolemy", "perdiccas"], key=lambda x: (-g[x].rank, g[x].seniority))[::-1]
    text = narrate(pack, _ev("ArmyMoved", **base, generals=[low, high]))
    assert text.startswith(f"south moves {g[high].name}'s army (with {g[low].name}) Dascylium -> Synnada")
    assert "minor general" in narrate(pack, _ev("ArmyMoved", **{**base, "minor": True}, generals=[]))


def test_one_op_is_singular(pack) -> None:
    one = next(c for c in pack.cards.values() if c.ops == 1)
    three = next(c for c in pack.cards.values() if c.ops == 3)
    assert card_label(pack, one.number).endswith("(1 OP)")
    assert card_label(pack, three.number).endswith("(3 OPs)")
    assert "1 OPs" not in narrate(pack, _ev("TrainingPaid", seat="north", ops=1, unit="fleet"))


def test_independent_army_names_take_the_article_they_need(pack) -> None:
    placed = narrate(pack, _ev("IndependentArmyPlaced", army="ariarathes", strength=5, space="mazaca"))
    assert placed == "Ariarathes of Cappadocia (strength 5) is in Mazaca."
    assert narrate(pack, _ev("IndependentArmyPlaced", army="scythians", strength=4, space="mazaca")) \
        .startswith("The Scythians (strength 4) are in")
    assert narrate(pack, _ev("IndependentArmyMoved", army="greek_army", **{"from": "lamia"}, to="pherae")) \
        == "The Greek Army moves from Lamia to Pherae."
    assert "activates Ariarathes of Cappadocia" in narrate(
        pack, _ev("IndependentArmyActivated", seat="east", army="ariarathes", card=1))
    for kind in ("IndependentArmyPlaced", "IndependentArmyMoved", "IndependentArmyRemoved",
                 "IndependentSiegeBegan", "IndependentArmyActivated"):
        text = narrate(pack, _ev(kind, army="ariarathes", seat="east", space="mazaca", strength=5,
                                 **{"from": "mazaca"}, to="tyana", card=1))
        assert "the Ariarathes" not in text.replace("The Ariarathes", "the Ariarathes"), text


def test_report_shows_the_full_seed_commitment(pack) -> None:
    for state, events in _war_reports(pack, 1):
        if any(e.kind == "DiceRolled" for e in events):
            break
    rep = build.render_report(pack, state, events, game_id="g", step=state.step, seat=None,
                              seats=SEATS_ROWS, headline="h", seed_commitment=COMMITMENT)
    assert COMMITMENT in rep.text and COMMITMENT in rep.html
    line = next(ln for ln in rep.text.splitlines() if COMMITMENT in ln)
    assert len(line) <= 72

"""Report wording a new reader stumbled on: ids in dice lines, "goes to the dispersed",
a move "ended" by an army that was wiped out, move lines without the general, "(1 OPs)",
"The Ariarathes of Cappadocia", a cut-off seed commitment."""
from __future__ import annotations

import itertools
import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from pbem import i18n, rules
from pbem.pack.loader import load_pack
from pbem.report import build, context
from pbem.report.history import Batch, headline, joined_headlines
from pbem.report.narrate import card_label, narrate
from pbem.rules.dice import Dice
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


# --- issue 24 items 9 and 14 ---------------------------------------------------------

PLURAL_NOUNS = ("garrison", "CU", "MP", "OP", "card", "space", "siege point", "province", "standing order",
                "report", "point", "army")
"""Nouns the judge's text counts."""
WRONG_NUMBER = re.compile(r"(?<![\d.#+-])(?:1 (?:" + "|".join(n + "s" for n in PLURAL_NOUNS) + r")|(?:0|[2-9]|[1-9]\d+) (?:"
                          + "|".join(PLURAL_NOUNS) + r"))\b(?![-'])")


def test_a_turn_order_re_roll_is_told_apart(pack) -> None:
    """Issue 24 item 9: the seats equal highest roll again; the re-roll is its own dice
    line, marked as such, and the sentence gives each roll of dice apart (it used to
    mix the last roll of each seat into one list)."""
    seen = 0
    for g in range(60):
        _state, events = rules.new_game(pack, f"tie-{g}".encode(), {})
        rolls = [e for e in events if e.kind == "DiceRolled" and "turn order tie" in e.data["purpose"]]
        if len(rolls) <= 4:
            continue
        texts = [h["text"] for h in context.happenings(pack, events)]
        first, again = rolls[:4], rolls[4:]
        assert not any("re-roll" in e.data["purpose"] for e in first)
        assert all(", re-roll " in e.data["purpose"] for e in again)
        dice_lines = [t for t in texts if t.startswith("Dice 1d6") and "turn order tie" in t]
        assert len(dice_lines) == len(rolls) and all("re-roll" in t for t in dice_lines[4:])
        line = next(t for t in texts if "names the first player" in t)
        seats = [e.data["purpose"].rsplit(": ", 1)[1] for e in rolls]
        values = [e.data["values"][0] for e in rolls]
        assert "First roll: " + ", ".join(f"{s} {v}" for s, v in zip(seats[:4], values[:4], strict=True)) in line
        top = max(values[:4])
        tied = [s for s, v in zip(seats[:4], values[:4], strict=True) if v == top]
        assert f"{' and '.join(tied)} tie for the highest and roll again: " in line, line
        winner = next(e for e in events if e.kind == "TurnOrderChooserNamed").data["seat"]
        last = {s: v for s, v in zip(seats, values, strict=True)}  # each seat's latest roll
        assert last[winner] == max(last[s] for s in tied) and line.count(f"{winner} names the first player") == 1
        seen += 1
    assert seen >= 3


def test_counts_agree_with_their_nouns(pack) -> None:
    """Issue 24 item 14: "1 garrisons", "1 MPs", "2 siege point(s)": every count in
    reports and prompts of war games agrees with its noun, and nothing says "(s)"."""
    texts = 0
    for n, (state, events) in enumerate(_war_reports(pack, 3)):
        rep = build.render_report(pack, state, events, game_id="g", step=state.step, seat="north",
                                  seats=SEATS_ROWS, headline="h", seed_commitment=COMMITMENT)
        bodies = [rep.text]
        if n % 5 == 0:
            for d in rules.pending(state):
                row = next(r for r in SEATS_ROWS if r["seat"] == d.seat)
                bodies.append(build.render_prompt(pack, state, d, game_id="g", seat_row=row, deadline="soon",
                                                  seats=SEATS_ROWS)[0])
        for body in bodies:
            flat = " ".join(body.split())
            assert "(s)" not in flat, re.findall(r".{40}\(s\).{10}", flat)
            assert not WRONG_NUMBER.search(flat), WRONG_NUMBER.findall(flat)
            texts += 1
    assert texts > 100
    for kind, data in [("CUsRemoved", {"seat": "east", "space": "isaura", "cus": {"mercenary": 1}, "rule": "R-9.5",
                                       "why": "hostile tribes"}),
                       ("HostileTribesRolled", {"seat": "east", "space": "isaura", "die": 3, "lost": 1}),
                       ("AssaultRolled", {"seat": "east", "space": "isaura", "dice": [3, 4], "points": 1, "lost": 1}),
                       ("StandingOrdersSet", {"seat": "east", "orders": [{"when": "losses"}]}),
                       ("SiegePointsScored", {"seat": "east", "space": "isaura", "points": 1, "total": 1,
                                              "needed": 2, "card": 50})]:
        text = narrate(pack, _ev(kind, **data))
        assert not WRONG_NUMBER.search(text) and "(s)" not in text, text
    assert narrate(pack, _ev("StandingOrdersSet", seat="east", orders=[])) == \
        "east clears its standing orders (R-9.3)."


def test_one_line_for_cus_placed_together(pack) -> None:
    """Issue 24 item 14: a raised mercenary is one line, not "raises a mercenary CU"
    followed by "places 1 mercenary"; CUs placed one by one in one space read once."""
    events = [_ev("MercenaryRaised", seat="north", space="tarsus", rule="R-8.7"),
              _ev("CUsPlaced", seat="north", space="tarsus", cus={"mercenary": 1}, rule="R-8.7",
                  why="mercenary raised"),
              *[_ev("CUsPlaced", seat="east", space="babylon", cus={"mercenary": 1}, rule="R-7.2",
                    why="reinforcement", from_dispersed=False) for _ in range(3)],
              _ev("CUsPlaced", seat="east", space="babylon", cus={"loyal": 1}, rule="R-7.2",
                  why="reinforcement", from_dispersed=False)]
    texts = [h["text"] for h in context.happenings(pack, events)]
    assert texts == ["north raises a mercenary CU in Tarsus.", "east places 1 loyal, 3 mercenary in Babylon."]  # pack order
    for _state, events in _war_reports(pack, 2):
        texts = [h["text"] for h in context.happenings(pack, events)]
        repeats = [a for a, b in itertools.pairwise(texts) if a == b and not a.startswith("Dice")]
        assert not repeats, repeats


def test_the_footer_names_the_map_only_when_it_is_attached(pack) -> None:
    state, events = rules.new_game(pack, b"footer", {})
    kw = {"game_id": "g", "step": 0, "seat": "north", "seats": SEATS_ROWS, "headline": "h",
          "seed_commitment": COMMITMENT}
    off = build.render_report(pack, state, events, **kw)  # config map_attachment: false
    assert "map picture is attached" not in off.text and "map picture is attached" not in off.html
    on = build.render_report(pack, state, events, map_cid="map.g@x", **kw)
    assert "The map picture is attached." in on.text and 'src="cid:map.g@x"' in on.html


def test_history_headlines_name_what_the_host_did() -> None:
    """Issue 24 item 14: host actions were "the game goes on" in the history list."""
    def h(*events: rules.Event) -> str:
        return i18n.localize(headline(3, events, False))

    ev = rules.judge_event
    assert h(ev("DeadlineMoved", {"due": "2030-01-01T00:00:00+00:00", "seat": "east", "step": 4,
                                  "why": "extend"})) == "the host extended the deadline of east"
    assert h(ev("GamePaused", {"at": "x", "reason": ""})) == "the host paused the game"
    assert h(ev("GameResumed", {"at": "x", "paused_seconds": 60, "reason": ""}),
             ev("DeadlineMoved", {"due": "x", "seat": "east", "step": 4, "why": "pause"})) == \
        "the host resumed the game; the deadline of east moved on by the pause"
    assert h(ev("SeatChanged", {"seat": "east", "changed": ["player", "address", "key"], "player": "P"})) == \
        "the host gave seat east a new player and address and key"
    assert h(ev("HostActed", {"command": "resend", "seat": "west"})) == "the host had west's prompt sent again"
    assert h(ev("DecisionMissed", {"seat": "west", "step": 4, "missed": 1, "total": 1})) == \
        "west sent no orders in time"
    assert h(ev("PreferencesSet", {"seat": "west", "prefs": {}})) == "a private entry of the log"
    state = rules.empty_state(load_pack())
    extend = Batch(1, 4, 10, 10, (), state, "the host extended the deadline of east")
    played = Batch(2, 4, 11, 20, (), state, "east played")
    assert joined_headlines([extend, extend, played]) == \
        "the host extended the deadline of east (2 times); east played"


def test_history_headlines_in_the_readers_language() -> None:
    """Issue 28 (text28 item 2): a history mail's subject and list said the headline in
    English to Spanish and Russian seats."""
    ev = rules.judge_event
    moved = headline(3, [ev("DeadlineMoved", {"due": "x", "seat": "east", "step": 4, "why": "extend"})], False)
    es, ru = i18n.translations("es"), i18n.translations("ru")
    assert i18n.localize(moved, es) == "el anfitrión amplió el plazo de east"
    assert i18n.localize(moved, ru) == "ведущий продлил срок east"
    state = rules.empty_state(load_pack())
    group = [Batch(1, 4, 10, 10, (), state, moved)] * 2 + [
        Batch(2, 4, 11, 20, (), state, headline(4, [SimpleNamespace(kind="OrdersApplied", data={"seat": "east"},
                                                                    public=True)], True))]
    assert joined_headlines(group, es) == "el anfitrión amplió el plazo de east (2 veces); jugó east (opción por " \
        "defecto al vencer el plazo)"
    assert "private" not in i18n.localize(headline(5, [ev("PreferencesSet", {"seat": "west", "prefs": {}})], False),
                                          ru)


# Issue 24 item H (the second hand-played game): report wording.

def test_a_seats_general_takes_the_right_article(pack) -> None:
    """"leads to a east general" read wrong: the article follows the seat's name (R-13)."""
    text = narrate(pack, _ev("GarrisonRemoved", seat="east", space="isaura", rule="R-13", why="isolated",
                             cut_by={"iconium": "west"}))
    assert "leads to an east general or major city" in text, text
    text = narrate(pack, _ev("GarrisonRemoved", seat="west", space="isaura", rule="R-13", why="isolated",
                             cut_by={}))
    assert "leads to a west general or major city" in text, text


def test_training_paid_into_one_unit_reads_as_one_sum(pack) -> None:
    """"pays 2 OPs to train a phalangite and 1 OP to train a phalangite" read as two
    units: the entries of one kind go into the same unit in training (R-8.4)."""
    text = narrate(pack, _ev("TrainingPaid", seat="north", rule="R-8.4",
                             paid=[{"unit": "phalangite", "ops": 2}, {"unit": "phalangite", "ops": 1}],
                             units=[{"unit": "phalangite", "paid": 3, "segments": 1, "turn": 1}]))
    assert text == "north pays 3 OPs toward a phalangite in training (R-8.4).", text
    text = narrate(pack, _ev("TrainingPaid", seat="north", rule="R-8.4",
                             paid=[{"unit": "phalangite", "ops": 2}, {"unit": "auxiliary", "ops": 1}],
                             units=[]))
    assert text == "north pays 2 OPs toward a phalangite and 1 OP toward an auxiliary in training (R-8.4).", text


def test_cus_are_listed_in_one_order_in_every_table_and_line(pack) -> None:
    """The CU types came in the pack's order in the tables and in the data's order in
    the lines of what happened ("1 mercenary, 2 loyal" beside "2 loyal, 1 mercenary")."""
    cus = {"mercenary": 1, "loyal": 2}
    line = narrate(pack, _ev("CUsPlaced", seat="north", space="pella", cus=cus, rule="R-7.2"))
    assert context.cus_text(pack, cus) == "2 loyal, 1 mercenary"
    assert "places 2 loyal, 1 mercenary in Pella" in line, line


def test_surprise_cards_are_among_the_cards_played(pack) -> None:
    state, _ = rules.new_game(pack, b"surprise", {})
    card = next(c for c in pack.cards.values() if c.type == "surprise") if any(
        getattr(c, "type", None) == "surprise" for c in pack.cards.values()) else next(iter(pack.cards.values()))
    ev = _ev("SurprisePlayed", seat="east", card=card.number, name=card.name, moment="battle", space="isaura",
             source="hand", rule="R-8.5")
    rep = build.render_report(pack, state, [ev], game_id="g", step=state.step, seat="north", seats=SEATS_ROWS,
                              headline="h", seed_commitment=COMMITMENT)
    played = " ".join(rep.text.split())
    assert f"Cards played or discarded: {card_label(pack, card.number)}." in played, played


def _window_games(pack, games: tuple[int, ...]):
    """Bot games with reaction windows and sieges (seeds ``wiped-{g}``, found to wipe out
    a suspended move): ``(state, events)`` after each decision."""
    for g in games:
        seed = f"wiped-{g}".encode()
        state, _ = rules.new_game(pack, seed, {"ask_windows": True, "bot_inside": True})
        rng = random.Random(g)
        for _ in range(400):
            pending = rules.pending(state)
            if not pending:
                break
            state, events = rules.apply(state, pending[0].seat, rules.bot_orders(state, pending[0].seat, rng),
                                        Dice(seed, state.step))
            yield state, events


def test_an_army_wiped_out_after_a_reaction_window_is_not_said_to_end_its_move(pack) -> None:
    """A move suspended by a reaction window (R-9.3) and wiped out when it went on had no
    ArmyMoved in its batch, so the report said "east's army ends its move in Nicaea"
    of an army that no longer existed (R-9.2)."""
    told = 0
    for state, events in _window_games(pack, (2, 4)):
        view = rules.view(state, None)
        lines = build.report_context(pack, state, events, game_id="g", step=state.step, seat=None, seats=SEATS_ROWS,
                                     headline="h", seed_commitment=COMMITMENT)["happened"]
        here = {(a["seat"], a["space"]) for a in view["armies"]}
        for e in events:
            if e.kind != "MoveEnded":
                continue
            said = f"{e.data['seat']}'s army ends its move in {pack.spaces[e.data['space']].name}."
            if (e.data["seat"], e.data["space"]) not in here and not any(
                    x.kind == "ArmyMoved" and x.data.get("to") == e.data["space"] for x in events):
                assert said not in [h["text"] for h in lines], said
                told += 1
    assert told > 0

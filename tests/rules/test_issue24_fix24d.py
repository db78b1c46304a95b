"""Issue 24, small wording findings of the confirmation game (fix24d), at the rules
level (a scenario position and its refusals, events told as the report tells them):

1. an interception names where the interceptor comes from and where it goes;
2. a battle rating of a name of several words reads "the battle rating of …";
3. a general arriving from the turn track cites the rule, not docs/rules.md;
4. an overpaid training is counted in the right number ("1 more OP"); places listed
   when no unit finishes training say that nothing can be placed.
"""
from __future__ import annotations

import pytest
from rules_harness import position

import pbem.rules as R
from pbem import i18n
from pbem.pack.loader import load_pack
from pbem.report.narrate import narrate
from pbem.rules.core.names import battle_roll_text

ES, RU = i18n.translations("es"), i18n.translations("ru")


@pytest.fixture(scope="module")
def real():
    return load_pack()


def _chosen(kind: str, choice: str, source: str = "standing") -> R.Event:
    return R.Event("ReactionChosen", {"seat": "west", "kind": kind, "choice": choice, "source": source,
                                      "space": "amisus", "rule": "R-9.3"})


def test_1_an_interception_names_both_spaces(real) -> None:
    said = narrate(real, _chosen("intercept", "sinope"))
    assert said == "west chooses to intercept from Sinope into Amisus (standing order).", said
    said = narrate(real, _chosen("avoid_battle", "sinope", "window"))
    assert said == "west chooses to avoid battle, leaving Amisus for Sinope.", said
    for tr in (ES, RU):
        said = narrate(real, _chosen("intercept", "sinope"), tr)
        assert "Sinope" in said or "Синоп" in said, said
        assert "Amisus" in said or "Амис" in said, said
        assert "chooses" not in said, said


def test_2_a_long_name_has_the_battle_rating_of(real) -> None:
    for army, name in (("ariarathes", "Ariarathes of Cappadocia"), ("autariatae", "Illyrians (Autariatae)")):
        rec = {"dice": [2, 2], "rating": 5, "armies": {army: 3}, "commander": None}
        dice, row = battle_roll_text(real, rec)
        assert dice == f"dice 2+2 = 4, below the battle rating of {name} 5, which counts instead", dice
        assert "'s" not in dice, dice
        for tr in (ES, RU):
            assert "battle rating" not in battle_roll_text(real, rec, tr)[0]
    dice, _ = battle_roll_text(real, {"dice": [6, 6], "rating": 3, "commander": "craterus"})
    assert dice == "dice 6+6 = 12, above Craterus's battle rating 3", dice


def test_3_a_general_from_the_turn_track_cites_the_rule_only(real) -> None:
    ev = R.Event("GeneralPlaced", {"general": "demetrius", "seat": "south", "space": "pella", "where": "map",
                                   "rule": "R-7.3", "decision": True})
    for tr in (None, ES, RU):
        said = narrate(real, ev, tr)
        assert "(R-7.3)" in said and "docs/" not in said, said


def test_4_an_overpaid_training_counts_one_op(real) -> None:
    st = position(real, {"turn": 2, "garrisons": {"memphis": "north"},
                         "training": {"north": [{"unit": "phalangite", "paid": 6, "segments": 1, "turn": 1}]},
                         "hands": {"north": [17, 13], "east": [21]}})
    rej = R.validate(st, "north", {"tyche": {"card": 17, "use": "train",
                                             "train": [{"unit": "phalangite", "ops": 2}]}, "movement": "none"})
    assert [r.code for r in rej] == ["tyche.train_overpaid"], [r.to_dict() for r in rej]
    assert "the phalangite needs only 1 more OP (R-8.4)" in rej[0].message, rej[0].message
    assert rej[0].hint.startswith("pay at most 1 OP on the phalangite ({unit: phalangite, ops: 1})"), rej[0].hint


def test_4_places_when_no_unit_finishes_training_say_nothing_is_placed(real) -> None:
    st = position(real, {"turn": 2, "garrisons": {"memphis": "north"},
                         "hands": {"north": [17, 13], "east": [21]}})
    rej = R.validate(st, "north", {"tyche": {"card": 17, "use": "train", "place": ["Memphis"],
                                             "train": [{"unit": "phalangite", "ops": 2}]}, "movement": "none"})
    assert [r.code for r in rej] == ["tyche.nothing_to_place"], [r.to_dict() for r in rej]
    assert "no unit finishes training with this card's OPs, so nothing can be placed" in rej[0].message
    assert "at most 0" not in rej[0].message
    assert rej[0].hint and "leave out place" in rej[0].hint
    ok = R.validate(st, "north", {"tyche": {"card": 17, "use": "train",
                                            "train": [{"unit": "phalangite", "ops": 2}]}, "movement": "none"})
    assert ok == [], [r.to_dict() for r in ok]


def test_5_a_move_names_the_royals_it_carries_and_not_what_a_drop_leaves(real) -> None:
    """A drop at the start is not a line of its own (docs/orders.md): the move's line
    names what leaves with the army, and Alexander IV carried along is said."""
    from pbem.rules.dice import Dice

    st = position(real, {"turn_order": ["north", "east", "south", "west"], "garrisons": {"sippar": "north"},
                         "generals": {"craterus": {"seat": "north", "where": "map", "space": "sippar"}},
                         "cus": {"sippar": {"north": {"loyal": 5}}},
                         "royals": {"alexander_iv": {"space": "sippar", "active": True, "seat": "north"}},
                         "hands": {"north": [57], "east": [58]}})
    orders = {"tyche": {"card": 57, "use": "discard"},
              "movement": [{"army": "Craterus", "path": ["Babylon"], "drop": [{"cus": {"loyal": 2}}]}]}
    assert R.validate(st, "north", orders) == []
    _st, events = R.apply(st, "north", orders, Dice(b"fix24d", st.step))
    moved = [e for e in events if e.kind == "ArmyMoved"]
    assert moved, [e.kind for e in events]
    said = narrate(real, moved[0])
    assert said == ("north moves Craterus's army Sippar -> Babylon with 3 loyal. "
                    "Alexander IV goes with the army."), said
    for tr in (ES, RU):
        said = narrate(real, moved[0], tr)
        assert "goes with the army" not in said and ("Alexander" in said or "Алекс" in said), said


def test_3_no_mail_text_sends_players_to_the_projects_docs() -> None:
    """Players have the rulebook and the guide `command: help` mails, not the project's
    docs/rules.md or docs/player-guide.md: no text of the catalogue names them (the
    host's guide and docs/trust.md, which the archive's README points to, may be named)."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    import pbem
    pot = Path(pbem.__file__).parent / "locale" / "pbem.pot"
    with pot.open("rb") as f:
        ids = [m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id]
    named = [i for i in ids if "docs/rules.md" in i or "docs/player-guide" in i]
    assert named == [], named


def test_6_an_event_that_would_do_nothing_is_not_offered(real) -> None:
    """#56 Levy of the Satrapy only brings on Ariarathes (R-14); once he is destroyed
    he does not return, so the prompt no longer offers the event (its OPs still are),
    and the orders that play it anyway are still accepted."""
    from pbem.rules.orders.tyche import options

    spec = {"garrisons": {"sippar": "north"}, "hands": {"north": [56, 57], "east": [58]},
            "generals": {"craterus": {"seat": "north", "where": "map", "space": "sippar"}},
            "cus": {"sippar": {"north": {"loyal": 2}}}}
    before = position(real, spec)
    uses = {h["card"]: h["uses"] for h in options(real, before.to_dict(), "north")["hand"]}
    assert "event" in uses[56], uses
    raw = before.to_dict()
    raw.setdefault("indep_armies", {})["ariarathes"] = {**raw["indep_armies"].get("ariarathes", {}), "gone": True,
                                                        "space": None}
    from pbem.rules.core.state import GameState
    after = GameState.from_dict(raw, real)
    uses = {h["card"]: h["uses"] for h in options(real, after.to_dict(), "north")["hand"]}
    assert "event" not in uses[56] and "garrisons" in uses[56], uses
    assert R.validate(after, "north", {"tyche": {"card": 56, "use": "event"}, "movement": "none"}) == []

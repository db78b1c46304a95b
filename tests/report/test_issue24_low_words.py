"""Issue 24, the low findings of the fourth hand-played game about the words of the
reports (each sentence as the report mail prints it, in English and Russian):

- N10: a verb agrees with the count of its CUs ("1 loyal … deserts", "2 loyal …
  desert"), by the catalogue's plural forms (Russian has three).
- N12: an unrest roll of the card named Unrest read "for unrest (Unrest)".
- N9: an assault read "assault chart row 4, column 4: 0/1" and a leader loss check "die
  3, safe": the numbers are now said (the dice make the row, the assaulting CUs the
  column, the cell is siege points gained / CUs lost; what calls for the check and
  which die kills).
"""
from __future__ import annotations

from pbem import i18n, rules
from pbem.pack.loader import load_pack
from pbem.report.context import roll_text
from pbem.report.narrate import narrate

PACK = load_pack()
RU = i18n.translations("ru")


def _mutiny(cus: dict[str, int]) -> rules.Event:
    return rules.Event("MutinyStruck", {"card": 16, "commander": "minor", "cus": cus,
                                        "legitimacy": {"north": 5, "east": 2}, "rule": "R-11.2", "seat": "north",
                                        "space": "pella", "target": "east"})


def test_n10_one_cu_deserts_two_desert() -> None:
    one = narrate(PACK, _mutiny({"loyal": 1}))
    assert ": 1 loyal of east's army under a minor general in Pella deserts to north's dispersed box" in one, one
    two = narrate(PACK, _mutiny({"loyal": 1, "royal": 1}))
    assert " in Pella desert to north's dispersed box" in two, two
    assert "переходит в квадрат" in narrate(PACK, _mutiny({"loyal": 1}), RU)
    assert "переходят в квадрат" in narrate(PACK, _mutiny({"loyal": 3}), RU)


def test_n10_dispersed_and_besieged_cus_agree_with_their_count() -> None:
    went = narrate(PACK, rules.Event("DispersedAdded", {"cus": {"mercenary": 1}, "rule": "R-7.3", "seat": "west",
                                                        "why": "x"}))
    assert went == "west's 1 mercenary goes to the dispersed box.", went
    went = narrate(PACK, rules.Event("CUsDispersed", {"cus": {"mercenary": 2}, "rule": "R-9.2", "seat": "west",
                                                      "space": "pella"}))
    assert went == "west's 2 mercenary in Pella go to the dispersed box.", went
    left = narrate(PACK, rules.Event("BesiegedRoyalCUsDeserted", {"count": 1, "from": "east", "legitimacy": {},
                                                                  "rule": "R-4.3", "space": "pella", "to": "north"}))
    assert left.startswith("1 royal CU besieged in Pella deserts east for north"), left
    aside = narrate(PACK, rules.Event("RoyalCUsSetAside", {"count": 1, "legitimacy": {}, "rule": "R-4.3",
                                                           "seat": "east", "space": "pella"}))
    assert "1 royal CU of east in Pella is set aside" in aside and "it joins the winner" in aside, aside
    joined = narrate(PACK, rules.Event("RoyalCUsJoined", {"count": 1, "from": "east", "rule": "R-4.3",
                                                          "seat": "north", "space": "pella"}))
    assert joined.startswith("The 1 royal CU set aside in Pella joins the winner, north"), joined


def test_n12_an_unrest_roll_names_unrest_once() -> None:
    info = {"values": [3, 4], "total": 7, "dice": "2d6", "purpose": "unrest (Unrest)", "rule": "R-16.2",
            "extra": []}
    assert roll_text(info) == "Dice 2d6: 3+4 = 7 for unrest (R-16.2)"
    assert roll_text(info, RU).endswith("волнения (R-16.2)"), roll_text(info, RU)


def test_n9_an_assault_says_what_its_numbers_mean() -> None:
    e = rules.Event("AssaultRolled", {"seat": "north", "space": "tyre", "dice": [3, 1], "modifier": 0,
                                      "modifiers": [], "read": {"chart": "assault", "row": 4, "column": 4,
                                                                "result": "0/1"},
                                      "points": 0, "lost": 1, "segment": "movement", "rule": "R-10"})
    assert narrate(PACK, e) == ("north assaults Tyre: dice 3+1 = 4, row 4 of the assault chart; 4 CUs assaulting, "
                                "column 3-5; the cell 0/1 is siege points gained / CUs lost: north gains 0 siege "
                                "points and loses 1 CU (R-10).")
    ru = narrate(PACK, e, RU)
    assert "строка 4 таблицы штурма" in ru and "столбец 3-5" in ru and "теряет 1 БЧ" in ru, ru


def test_n9_a_leader_loss_check_says_why_and_which_die_kills() -> None:
    def check(die: int, killed: bool) -> rules.Event:
        return rules.Event("LeaderLossChecked", {"seat": "north", "general": "perdiccas", "die": die,
                                                 "read": {"chart": "leader_loss", "row": die,
                                                          "result": "killed" if killed else "safe"},
                                                 "killed": killed, "rule": "R-9.2"})
    assert narrate(PACK, check(3, False)) == (
        "Leader loss check for Perdiccas, north's commander (a battle roll of 9 calls for it, R-9.2): one die, 3: "
        "he is safe (only a die of 6 kills).")
    assert narrate(PACK, check(6, True)).endswith("one die, 6: he is killed (a die of 6 kills).")
    assert "уцелел" in narrate(PACK, check(3, False), RU)


def test_n3_generals_who_stay_dispersed_are_named_with_why() -> None:
    """N3: the reinforcement phase brings dispersed major generals back to a garrison of
    their seat free of enemy units (R-7.3); a general with none to go to stayed in the box
    without a word. The report's WHAT HAPPENED now names him and why; one dispersed
    after the phase opened (later in the same events) is not named."""
    from pbem.report.context import happenings

    events = [rules.Event("PhaseStarted", {"phase": "reinforcement", "rule": "R-7"}),
              rules.Event("ReinforcementsGranted", {"cus": {}, "queue": ["north", "east", "south", "west"],
                                                    "rule": "R-7.1"}),
              rules.Event("GeneralPlaced", {"general": "craterus", "seat": "south", "where": "dispersed",
                                            "space": None, "rule": "R-9.2"})]
    after = {"turn_order": ["north", "east", "south", "west"], "generals": {
        "perdiccas": {"seat": "west", "space": None, "where": "dispersed"},
        "craterus": {"seat": "south", "space": None, "where": "dispersed"},
        "ptolemy": {"seat": "east", "space": "memphis", "where": "map"}}}
    lines = [h["text"] for h in happenings(PACK, events, after)]
    assert ("Perdiccas stays in west's dispersed box: west has no garrison free of enemy units for a general "
            "to return to (R-7.3).") in lines, lines
    assert not [x for x in lines if "Craterus stays" in x], lines
    ru = [h["text"] for h in happenings(PACK, events, after, RU)]
    assert any("остаётся в квадрате рассеянных west" in x for x in ru), ru

"""Broken packs are rejected with a message naming file, entry, field and problem."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem.pack.loader import EFFECT_PRIMITIVES, PackError, load_pack

Edit = Callable[[str, Callable[[Any], None]], Path]


def problems_of(directory: Path) -> list[str]:
    with pytest.raises(PackError) as info:
        load_pack(directory)
    assert isinstance(info.value, ValueError)
    return info.value.problems


def test_copy_of_builtin_pack_loads(pack_copy: Path) -> None:
    pack = load_pack(pack_copy)
    assert pack.name == "mypack" and len(pack.spaces) == len(load_pack().spaces)


def test_unknown_space_in_a_path(edit: Edit) -> None:
    def corrupt(doc: Any) -> None:
        doc["paths"][12]["a"] = "Pelusim"
    probs = problems_of(edit("paths.yaml", corrupt))
    assert any(p.startswith("paths.yaml: paths[12]: unknown space 'Pelusim' (did you mean 'pelusium'?)")
               for p in probs), probs


def test_sea_path_between_non_ports(edit: Edit) -> None:
    def corrupt(doc: Any) -> None:
        doc["paths"].append({"a": "pella", "b": "babylon", "kind": "sea", "source": "reconstructed"})
    probs = problems_of(edit("paths.yaml", corrupt))
    assert any("sea path pella-babylon: 'pella' is not a port" in p for p in probs), probs
    assert any("'babylon' is not a port" in p for p in probs)


def test_duplicate_id(edit: Edit) -> None:
    def corrupt(doc: Any) -> None:
        doc["provinces"].append(dict(doc["provinces"][0]))
    probs = problems_of(edit("provinces.yaml", corrupt))
    assert any(p.startswith("provinces.yaml: provinces[38] (macedonia): duplicate id 'macedonia'")
               for p in probs), probs


def test_province_without_spaces(edit: Edit) -> None:
    def corrupt(doc: Any) -> None:
        doc["provinces"].append({"id": "scythia", "name": "Scythia", "vp": 1, "area": "europe",
                                 "source": "reconstructed"})
    probs = problems_of(edit("provinces.yaml", corrupt))
    assert probs == ["provinces.yaml: provinces[38] (scythia): province 'scythia' has no spaces"]


def test_province_that_cannot_be_controlled(edit: Edit) -> None:
    def corrupt(doc: Any) -> None:
        for s in doc["spaces"]:
            if s["province"] == "crete":
                s["kind"] = "transit"
    probs = problems_of(edit("spaces.yaml", corrupt))
    assert any("province 'crete' cannot be controlled" in p for p in probs), probs


def test_chart_missing_a_row_and_a_cell(edit: Edit) -> None:
    def corrupt(doc: Any) -> None:
        battle = next(c for c in doc["charts"] if c["id"] == "battle")
        del battle["cells"]["7"]
        del battle["cells"]["8"]["4-6"]
    probs = problems_of(edit("charts.yaml", corrupt))
    assert "charts.yaml: charts[0] (battle): cells: row '7' is missing" in probs
    assert "charts.yaml: charts[0] (battle): cells['8']: column '4-6' is missing" in probs


def test_unknown_effect_primitive(edit: Edit) -> None:
    def corrupt(doc: Any) -> None:
        card = next(c for c in doc["cards"] if c["number"] == 9)
        card["effects"][0]["effect"] = "unrestt"
    probs = problems_of(edit("cards.yaml", corrupt))
    assert any(p.startswith("cards.yaml: cards[8] (9): effects[0]: unknown effect primitive 'unrestt'")
               and "did you mean 'unrest'" in p for p in probs), probs


def test_every_problem_is_reported_at_once(edit: Edit) -> None:
    def spaces(doc: Any) -> None:
        doc["spaces"][0]["lat"] = "north"
        doc["spaces"][1]["province"] = "macedon"
        doc["spaces"][2]["colour"] = "red"

    edit("spaces.yaml", spaces)

    def generals(doc: Any) -> None:
        doc["generals"][0]["start"]["space"] = "babylom"
        doc["generals"][1].pop("rank")
    probs = problems_of(edit("generals.yaml", generals))
    text = "\n".join(probs)
    assert "spaces.yaml: spaces[0] (pella): field 'lat' must be a number, got 'north'" in text
    assert "spaces.yaml: spaces[1] (aegae): unknown province 'macedon' (did you mean 'macedonia'?)" in text
    assert "spaces.yaml: spaces[2] (pydna): unknown field 'colour'" in text
    assert "generals.yaml: generals[0] (perdiccas): start: unknown space 'babylom' (did you mean 'babylon'?)" in text
    assert "generals.yaml: generals[1] (craterus): field 'rank' is missing" in text


def test_counts_strongholds_and_hellespont(edit: Edit) -> None:
    def corrupt(doc: Any) -> None:
        for s in doc["spaces"]:
            if s["id"] == "petra":
                s["kind"] = "minor_city"
            if s["id"] == "byzantium":
                s["hellespont"] = False
    probs = problems_of(edit("spaces.yaml", corrupt))
    assert any("expected exactly 9 strongholds, found 8" in p for p in probs)
    assert any("expected exactly 5 Hellespont ports, found 4" in p for p in probs)


def test_graph_not_connected_and_port_without_sea_path(edit: Edit) -> None:
    def corrupt(doc: Any) -> None:
        doc["paths"] = [p for p in doc["paths"]
                        if "cydonia" not in (p["a"], p["b"]) and "cnossus" not in (p["a"], p["b"])
                        or p["kind"] == "land"]
    probs = problems_of(edit("paths.yaml", corrupt))
    assert any(p.startswith("paths.yaml: map is not connected") and "cnossus" in p for p in probs)
    assert any("port 'cydonia' has no sea path" in p for p in probs)


def test_unknown_references_in_pieces(edit: Edit, pack_copy: Path) -> None:
    def royals(doc: Any) -> None:
        doc["royals"][0]["start"] = "babylonn"
    edit("royals.yaml", royals)

    def fleets(doc: Any) -> None:
        doc["fleets"][1]["home"] = "macedonie"
    edit("fleets.yaml", fleets)

    def cards(doc: Any) -> None:
        next(c for c in doc["cards"] if c["number"] == 41)["general"] = "seleukos"
    probs = problems_of(edit("cards.yaml", cards))
    text = "\n".join(probs)
    assert "royals.yaml: royals[0] (alexander_iv): unknown start space 'babylonn'" in text
    assert "fleets.yaml: fleets[1] (macedonian_fleet): unknown fleet home 'macedonie'" in text
    assert "cards.yaml: cards[40] (41): unknown general 'seleukos'" in text


def test_yaml_syntax_error_and_missing_file(pack_copy: Path) -> None:
    (pack_copy / "turns.yaml").write_text("turns: [\n  - {number: 1\n", encoding="utf-8")
    (pack_copy / "fleets.yaml").unlink()
    probs = problems_of(pack_copy)
    assert any(p.startswith("turns.yaml: YAML syntax error at line") for p in probs), probs
    assert "fleets.yaml: file is missing" in probs


def test_missing_constant(edit: Edit) -> None:
    def corrupt(doc: Any) -> None:
        del doc["constants"]["hand_size"]
    probs = problems_of(edit("constants.yaml", corrupt))
    assert any("constant 'hand_size' is missing" in p for p in probs)


def test_not_a_directory(tmp_path: Path) -> None:
    with pytest.raises(PackError) as info:
        load_pack(tmp_path / "nope")
    assert "not a directory" in info.value.problems[0]


def test_effect_primitives_cover_the_pack() -> None:
    used = {e.primitive for c in load_pack().cards.values() for e in c.effects}
    assert used <= EFFECT_PRIMITIVES
    for name in ("gain_cus", "move_royal", "kill_royal", "activate_independent", "adjust_lp",
                 "extra_cards", "place_markers", "unrest", "marriage_offer", "prestige_bonus",
                 "move_armies"):
        assert name in EFFECT_PRIMITIVES


def test_effect_parameters_are_checked(edit: Edit) -> None:
    """R-16.3: a resolved primitive's declared parameters (EFFECT_PARAMS): extra_cards
    takes a count of at least 1, and nothing else."""
    def corrupt(doc: Any) -> None:
        card = next(c for c in doc["cards"] if c["number"] == 55)
        card["effects"][0]["count"] = 0
        card["effects"][0]["from"] = "discards"
    probs = problems_of(edit("cards.yaml", corrupt))
    assert any("effects[0]: count must be a whole number of at least 1, got 0" in p
               for p in probs), probs
    assert any("extra_cards has no parameter 'from'; it takes: count" in p for p in probs), probs


def test_ops_only_cards_say_why(edit: Edit) -> None:
    """R-16.3 [D]: a card with ``event: none`` has no effects and gives its reason."""
    def corrupt(doc: Any) -> None:
        card = next(c for c in doc["cards"] if c["number"] == 57)
        del card["reason"]
        other = next(c for c in doc["cards"] if c["number"] == 58)
        other["effects"] = [{"effect": "extra_cards", "count": 1}]
    probs = problems_of(edit("cards.yaml", corrupt))
    assert "cards.yaml: cards[56] (57): an OPs-only card (event: none) says why under reason" \
        in probs, probs
    assert "cards.yaml: cards[57] (58): a card with event: none has no effects" in probs, probs
    pack = load_pack()
    for n in range(57, 64):
        assert pack.cards[n].text == "none" and pack.cards[n].reason and not pack.cards[n].effects


def test_card_event_parameters_are_checked(edit: Edit) -> None:
    """Each primitive's parameters (EFFECT_PARAMS): required ones, their kinds, the
    combinations a primitive needs, and a general card's place_general (R-8.6)."""
    def corrupt(doc: Any) -> None:
        cards = {c["number"]: c for c in doc["cards"]}
        cards[15]["effects"][0]["where"] = "anywhere"
        del cards[30]["effects"][0]["count"]
        del cards[34]["effects"][0]["range"]
        cards[42]["effects"][0]["provinces"] = "media"
        cards[41]["effects"][0]["general"] = "polyperchon"
        cards[53]["effects"][0]["step"] = 0
    probs = problems_of(edit("cards.yaml", corrupt))
    for want in (
            "cards.yaml: cards[14] (15): effects[0]: where must be one of reinforcement, "
            "general_in, got 'anywhere'",
            "cards.yaml: cards[29] (30): effects[0]: gain_cus needs 'count'",
            "cards.yaml: cards[33] (34): effects[0]: place_markers with kind: garrison needs 'range'",
            "cards.yaml: cards[41] (42): effects[0]: provinces must be a list of provinces, got 'media'",
            "cards.yaml: cards[40] (41): a general card's event is one place_general of its "
            "general ('seleucus')",
            "cards.yaml: cards[52] (53): effects[0]: step must be a whole number of at least 1, got 0"):
        assert want in probs, (want, probs)


def test_royal_and_legitimacy_parameters_are_checked(edit: Edit) -> None:
    """R-11, R-12, R-16.1: the parameters of adjust_lp, condemnation, mutiny, move_royal
    and marriage_offer are checked by kind (EFFECT_PARAMS): a missing required one, a
    value of the wrong kind, a word not among the choices, an unknown CU type."""
    def corrupt(doc: Any) -> None:
        cards = {c["number"]: c for c in doc["cards"]}
        cards[13]["effects"][0]["lp"] = "two"
        cards[16]["effects"][0]["types"] = ["royal", "hoplite"]
        cards[17]["effects"][0]["target"] = "everyone"
        cards[19]["effects"][0]["with_army"] = "yes"
        del cards[31]["effects"][0]["royal"]
    probs = problems_of(edit("cards.yaml", corrupt))
    for want in ("lp must be a whole number, got 'two'",
                 "types must be a list of CU type ids",
                 "target must be one of self, player, controller_of, got 'everyone'",
                 "with_army must be true or false, got 'yes'",
                 "marriage_offer needs 'royal'"):
        assert any(want in p for p in probs), (want, probs)

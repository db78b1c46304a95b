"""The receipt's orders in printed names (issue 13): a card named by the player is echoed
by number with its label, spaces and generals by their printed names, and the YAML
still reads back as the same orders."""
from __future__ import annotations

import yaml

from pbem.pack.loader import load_pack
from pbem.report.orders_text import normal_orders, orders_yaml
from pbem.rules.core.names import printed_name


def test_a_card_named_by_the_player_is_echoed_by_number_and_label() -> None:
    pack = load_pack()
    condemnation = next(n for n, c in sorted(pack.cards.items()) if c.name == "Condemnation")
    text = orders_yaml(pack, {"tyche": {"card": "condemnation", "use": "event", "general": "ptolemy"},
                              "movement": [{"army": "perdiccas", "path": ["babylon", "opis"]}]},
                       hand=[condemnation, 1])
    assert f"card: {condemnation}" in text and f"# #{condemnation} Condemnation" in text
    assert "general: Ptolemy" in text and "path: [Babylon, Opis]" in text and "army: Perdiccas" in text
    assert "condemnation" not in text.replace("Condemnation", "")
    back = yaml.safe_load(text)["orders"]
    assert back["tyche"]["card"] == condemnation


def test_words_that_are_no_pack_name_stay_as_written() -> None:
    pack = load_pack()
    orders = {"movement": "mercenary", "tyche": {"card": 12, "use": "Garrisons", "places": ["Pellla"]},
              "inside": {"babylon": {"loyal": 1}}, "first_player": "east"}
    out = normal_orders(pack, orders)
    assert out["movement"] == "mercenary" and out["tyche"]["use"] == "Garrisons"
    assert out["tyche"]["places"] == ["Pellla"] and out["first_player"] == "east"
    assert out["inside"] == {"Babylon": {"loyal": 1}}


def test_printed_name_reads_ids_and_names_in_any_case() -> None:
    pack = load_pack()
    assert printed_name(pack, "greek_army") == "Greek Army"
    assert printed_name(pack, "syrian gates") == "Syrian Gates"
    assert printed_name(pack, "PELLA") == "Pella"
    assert printed_name(pack, "none") == "none"

"""Prompts, reports and the map picture name places, generals and cards in the seat's
language, from the pack's names (issue 28, items 4 and 6); the prompt's YAML template
stays canonical."""
from __future__ import annotations

import random
import re

from pbem import i18n, rules
from pbem.pack import names
from pbem.pack.loader import load_pack
from pbem.report import build, snapshot
from pbem.report.overview import overview_layers
from pbem.rules.dice import Dice

SEATS_ROWS = [{"seat": "north", "player": "Kleitos"}, {"seat": "east", "player": "Peukestas"},
              {"seat": "south", "player": "Nearchos"}, {"seat": "west", "player": "Aristonous"}]


def _game(steps: int, seed: bytes = b"names-1") -> tuple[rules.GameState, list[rules.Event]]:
    pack = load_pack()
    state, events = rules.new_game(pack, seed, {})
    rng = random.Random(1)
    for _ in range(steps):
        d = rules.pending(state)[0]
        state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng), Dice(seed, state.step))
    return state, events


def test_the_prompt_shows_the_hand_in_the_seat_language_and_a_canonical_template() -> None:
    pack = load_pack()
    state, _ = _game(9)
    d = rules.pending(state)[0]
    row = next(r for r in SEATS_ROWS if r["seat"] == d.seat)
    hand = rules.view(state, d.seat)["private"]["hand"]
    ctx = {lang: build.prompt_context(pack, state, d, game_id="g", seat_row=row, deadline="x", seats=SEATS_ROWS,
                                      tr=i18n.translations(lang)) for lang in ("en", "ru")}
    assert ctx["ru"]["template_yaml"] == ctx["en"]["template_yaml"]  # the orders' words stay canonical
    text, _html = build.render_prompt(pack, state, d, game_id="g", seat_row=row, deadline="x", seats=SEATS_ROWS,
                                      tr=i18n.translations("ru"))
    for n in hand:
        ru_name = pack.names["ru"]["cards"][n]
        assert f"#{n} {ru_name}" in text
        if pack.cards[n].text != "none":
            first_words = " ".join(pack.names["ru"]["card_texts"][n].split()[:3])
            assert first_words in " ".join(text.split())
    hand_part = text.split("\n\n", 3)
    assert any(f"#{n} {pack.cards[n].name}" not in "".join(hand_part) for n in hand)


def test_the_report_names_armies_places_in_spanish() -> None:
    pack = load_pack()
    before, _ = _game(8)
    state, events = _game(9)
    rep = build.render_report(pack, state, events, game_id="g", step=before.step, seat="west", seats=SEATS_ROWS,
                              headline="x", seed_commitment="c", before=before, tr=i18n.translations("es"))
    english = build.render_report(pack, state, events, game_id="g", step=before.step, seat="west",
                                  seats=SEATS_ROWS, headline="x", seed_commitment="c", before=before)
    spaces = {a["space"] for a in rules.view(state, None)["armies"]}
    changed = [sid for sid in spaces if pack.names["es"]["spaces"][sid] != pack.spaces[sid].name]
    assert changed, spaces  # the test needs an army in a place whose Spanish name differs
    for sid in changed:
        spanish = re.compile(rf"(?<!\w){re.escape(pack.names['es']['spaces'][sid])}(?!\w)")
        assert spanish.search(rep.text), sid
        assert not spanish.search(english.text), sid


def test_the_map_labels_are_in_the_seat_script_and_drawn_once_per_language() -> None:
    pack = load_pack()
    state, events = _game(4)
    ru = names.localized(pack, "ru")
    words = {lang: " ".join(el for layer in overview_layers(p, snapshot.overlay(p, state, events, "t"), 1000)
                            for el in layer.elements)
             for lang, p in (("en", pack), ("ru", ru))}
    assert ">Вавилон<" in words["ru"] and ">Babylon<" in words["en"]
    assert ">Babylon<" not in words["ru"] and "Вавилон" not in words["en"]
    pngs = build.seat_map_pngs(pack, state, events, "t", list(rules.SEATS),
                               languages={"north": "en", "east": "es", "south": "ru", "west": "es"})
    assert all(pngs.values())
    assert pngs["east"] == pngs["west"]  # one picture per language
    assert len({pngs["north"], pngs["east"], pngs["south"]}) == 3
    english = build.seat_map_pngs(pack, state, events, "t", list(rules.SEATS))
    assert english["north"] == english["south"] != pngs["south"]  # the Russian seat's picture is its own

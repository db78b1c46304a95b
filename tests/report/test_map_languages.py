"""One decision's map pictures with seats in several languages (issue 28 item 6): the
turn's boxes are placed once for every language and drawn once, each language adds its
names and labels (Cyrillic for ``ru``), the caches keep the languages apart, and a
decision whose seats all read English draws the pictures it drew before."""
from __future__ import annotations

import io
import random
import re

import cairocffi as cairo
import pytest
from PIL import Image

from pbem import rules
from pbem.pack import names
from pbem.pack.loader import load_pack
from pbem.pack.model import Pack
from pbem.report import build, raster, snapshot
from pbem.report.mapview import MapOverlay, _Projection, map_layers, svg_document
from pbem.report.overview import MAILED_WIDTH, caption, legend_strip, overview_layer_sets, overview_layers
from pbem.rules.dice import Dice
from tests.report.svgboxes import inside, overlap, walk
from tests.report.test_map_legibility import _parts

PLAYERS = {"north": "Kleitos", "east": "Peukestas", "south": "Nearchos", "west": "Aristonous"}
MIXED = {"north": "en", "east": "es", "south": "ru", "west": "en"}
CYRILLIC = re.compile("[\u0400-\u04ff]")


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack(None)


def _game(pack: Pack, steps: int, seed: int) -> tuple[rules.GameState, list[rules.Event]]:
    state, events = rules.new_game(pack, bytes([seed]) * 8, {})
    rng = random.Random(seed)
    for _ in range(steps):
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng),
                                    Dice(bytes([seed]) * 8, state.step))
    return state, list(events)


def _variants(pack: Pack, state: rules.GameState, events: list[rules.Event],
              languages: tuple[str, ...] = ("en", "es", "ru")) -> list[tuple[Pack, MapOverlay]]:
    out = []
    for lang in languages:
        p = names.localized(pack, lang)
        out.append((p, snapshot.overlay(p, state, events, "g1 step 9", PLAYERS)))
    return out


def _texts(layers: list, name: str) -> str:
    return " ".join(e for layer in layers if layer.name == name for e in layer.elements)


@pytest.mark.parametrize(("steps", "seed"), [(15, 3), (60, 5)])
def test_the_boxes_stand_at_the_same_places_in_every_language_and_hold_each_label(pack: Pack, steps: int,
                                                                                  seed: int) -> None:
    """The overview of one position in en, es and ru: the layers without words (the
    turn's marks and box frames among them) are the same in the three, the names and
    the box labels are each language's (Cyrillic in ru only); in each language's
    picture no box covers a name it carries or a symbol, and every label lies inside
    its box."""
    state, events = _game(pack, steps, seed)
    variants = _variants(pack, state, events)
    sets = overview_layer_sets(variants)
    for name in ("o-base", "control", "symbols", "spaces", "o-turn"):
        assert len({tuple(e for layer in layers if layer.name == name for e in layer.elements)
                    for layers in sets}) == 1, name
    assert 'class="army"><line' in _texts(sets[0], "o-turn") and "<text" not in _texts(sets[0], "o-turn")
    labels = [_texts(layers, "o-labels") for layers in sets]
    assert len(set(labels)) == 3 and all("<text" in t for t in labels)
    assert CYRILLIC.search(labels[2]) and not CYRILLIC.search(labels[0]) and not CYRILLIC.search(labels[1])
    ru_names = _texts(sets[2], "o-names")
    assert ">Вавилон<" in ru_names and ">Babylon<" in _texts(sets[0], "o-names")
    k = MAILED_WIDTH / _Projection().width
    for (p, _ov), layers in zip(variants, sets, strict=True):
        drawn = list(walk(svg_document([e for layer in layers for e in layer.elements]), k))
        shown, symbols, boxes = _parts(p, drawn)
        assert boxes and shown and symbols
        covered = [(b.box, o.text or o.tag) for b in boxes for o in [*shown, *symbols] if overlap(b.box, o.box) > 0]
        assert covered == [], (p.language, covered[:5])
        texts = [d for d in drawn if d.tag == "text" and d.classes & {"army", "royal"}]
        assert len(texts) == len(boxes)
        outside = [(t.text, t.box, b.box) for t, b in zip(texts, boxes, strict=True) if not inside(t.box, b.box)]
        assert outside == [], (p.language, outside[:5])


def test_one_language_alone_keeps_its_own_layout(pack: Pack) -> None:
    """A decision whose seats read one language places the boxes for it alone: its
    overview is the one overview_layers draws, each label drawn with its box."""
    state, events = _game(pack, 27, 3)
    for p, ov in _variants(pack, state, events):
        (alone,) = overview_layer_sets([(p, ov)])
        assert alone == overview_layers(p, ov)
        assert not _texts(alone, "o-labels") and "<text" in _texts(alone, "o-turn")


def test_a_decision_in_three_languages_draws_the_turn_once(pack: Pack, monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn's marks and frames are drawn once for the three languages, the labels
    once per language; each language's seats share one picture, and the three
    pictures take the English overview's palette."""
    state, events = _game(pack, 40, 4)
    drawn: list[str] = []

    def counted(real):  # noqa: ANN001, ANN202
        def draw(target: object, layer: raster.Layer, width: int) -> None:
            if layer.elements:
                drawn.append(layer.name)
            real(target, layer, width)
        return draw
    monkeypatch.setattr(raster, "_draw", counted(raster._draw))
    monkeypatch.setattr(raster, "_draw_labels", counted(raster._draw_labels))
    monkeypatch.setattr(raster, "_draw_turn", counted(raster._draw_turn))
    pngs = build.seat_map_pngs(pack, state, events, "g1 step 9", list(rules.SEATS), players=PLAYERS,
                               languages=MIXED)
    assert drawn.count("o-turn") == 1 and drawn.count("o-labels") == 3 and drawn.count("o-top") == 3
    assert pngs["north"] == pngs["west"] and len({pngs["north"], pngs["east"], pngs["south"]}) == 3
    palettes = {tuple(Image.open(io.BytesIO(png)).getpalette() or ()) for png in pngs.values() if png}
    assert len(palettes) == 1 and () not in palettes


def test_the_caches_keep_the_languages_apart(pack: Pack) -> None:
    """Pictures drawn after other languages' are byte for byte those drawn on empty
    caches: an English decision before and after mixed and Russian ones, and a
    Russian one after English ones."""
    state, events = _game(pack, 27, 3)
    english = {s: "en" for s in rules.SEATS}
    russian = {s: "ru" for s in rules.SEATS}

    def draw(languages: dict[str, str]) -> dict[str, bytes | None]:
        return build.seat_map_pngs(pack, state, events, "g1 step 9", list(rules.SEATS), players=PLAYERS,
                                   zoom={"north"}, languages=languages)

    def cold() -> None:
        raster._rasters.clear()
        raster._content.clear()
        raster._strips.clear()
    cold()
    first = draw(english)
    cold()
    ru_alone = draw(russian)
    mixed = draw(MIXED)
    assert draw(english) == first
    assert draw(russian) == ru_alone
    assert first["north"] != ru_alone["north"] and mixed["south"] != ru_alone["south"]
    cold()
    draw(MIXED)
    assert draw(russian) == ru_alone and draw(english) == first


def test_an_english_decision_draws_the_pictures_of_english_alone(pack: Pack) -> None:
    """Every seat reading English (the default): each picture is the one
    seat_map_png draws for the position alone, zoom and all."""
    state, events = _game(pack, 60, 5)
    ov = snapshot.overlay(pack, state, events, "g1 step 9", PLAYERS)
    pngs = build.seat_map_pngs(pack, state, events, "g1 step 9", list(rules.SEATS), players=PLAYERS,
                               zoom={"north", "east"})
    assert pngs["north"] == raster.seat_map_png(pack, ov, "north")
    assert pngs["east"] == raster.seat_map_png(pack, ov, "east")
    assert pngs["south"] == pngs["west"] == raster.seat_map_png(pack, ov, None)


def test_overlays_of_different_positions_are_refused(pack: Pack) -> None:
    one, two = _game(pack, 15, 3), _game(pack, 60, 5)
    (a, ova), (b, ovb) = _variants(pack, *one, ("en",)) + _variants(pack, *two, ("ru",))
    with pytest.raises(ValueError):
        overview_layer_sets([(a, ova), (b, ovb)])
    with pytest.raises(ValueError):
        overview_layer_sets([])


@pytest.mark.parametrize(("steps", "seed", "width"), [(27, 3, 1000), (90, 11, 1000), (60, 5, 640)])
def test_the_labels_drawn_without_cairosvg_have_its_pixels(pack: Pack, steps: int, seed: int, width: int) -> None:
    """The box labels of a decision in several languages are drawn with the cairo calls
    cairosvg makes (raster._draw_labels, 4 times faster): byte for byte the pixels
    cairosvg draws from their SVG, in each language (Cyrillic, accents, the crown);
    anything but a label is refused."""
    state, events = _game(pack, steps, seed)
    sets = overview_layer_sets(_variants(pack, state, events), width)
    for layers in sets:
        (labels,) = [layer for layer in layers if layer.name == "o-labels"]
        assert labels.elements
        ours, theirs = (cairo.ImageSurface(cairo.FORMAT_ARGB32, *raster.picture_size(width)) for _ in range(2))
        raster._draw_labels(ours, labels, width)
        raster._draw(theirs, labels, width)
        ours.flush()
        theirs.flush()
        assert bytes(ours.get_data()) == bytes(theirs.get_data())
        assert any(bytes(ours.get_data()))
    (turn,) = [layer for layer in sets[0] if layer.name == "o-turn"]
    with pytest.raises(ValueError):
        raster._draw_labels(cairo.ImageSurface(cairo.FORMAT_ARGB32, 10, 10), turn, width)


def test_the_legend_the_zoom_bar_and_the_box_words_are_in_the_seat_language(pack: Pack) -> None:
    """The words the picture adds to the pack's names (the legend strip under the
    overview, the bar over the zoom, an army box without a general: "3 CUs") are the
    seat's language's, from the catalogues; English keeps its words."""
    state, events = _game(pack, 60, 5)
    (_en, english), (_es, spanish), (_ru, russian) = _variants(pack, state, events)
    strips = {lang: " ".join(legend_strip(ov, 1000, lang)[0])
              for lang, ov in (("en", english), ("es", spanish), ("ru", russian))}
    assert ">major city<" in strips["en"] and ">royal family<" in strips["en"] and not CYRILLIC.search(strips["en"])
    assert ">ciudad mayor<" in strips["es"] and ">familia real<" in strips["es"] and ">major city<" not in strips["es"]
    assert ">крупный город<" in strips["ru"] and ">королевская семья<" in strips["ru"]
    assert ">major city<" not in strips["ru"]
    assert caption("north") == "Zoom: around north's forces and this turn's fronts (dashed frame above)"
    assert CYRILLIC.search(caption("north", "ru")) and "north" in caption("north", "ru")
    plain = [(i, label) for i, (_s, _seat, label) in enumerate(english.armies) if re.fullmatch(r"\d+ CUs?", label)]
    assert plain, english.armies  # the position needs an army without a general
    for i, label in plain:
        n = label.split()[0]
        assert spanish.armies[i][2] == f"{n} UC" and russian.armies[i][2] == f"{n} БЧ"


@pytest.mark.parametrize(("steps", "seed", "width"), [(15, 3, 1000), (90, 11, 1000), (60, 5, 640)])
def test_the_turn_drawn_without_cairosvg_has_its_pixels(pack: Pack, steps: int, seed: int, width: int) -> None:
    """The turn's layer (marks, then the boxes' frames and labels) drawn by
    raster._draw_turn, the boxes with cairosvg's own cairo calls and the labels held
    back while no later frame touches them: byte for byte cairosvg's pixels, for the
    overview alone and shared by three languages and for the full map the zoom is cut
    from, in each language."""
    state, events = _game(pack, steps, seed)
    variants = _variants(pack, state, events)
    layers = [*(layer for layers in overview_layer_sets(variants, width) for layer in layers),
              *(layer for p, ov in variants for layer in overview_layers(p, ov, width)),
              *(layer for p, ov in variants for layer in map_layers(p, ov))]
    turns = [layer for layer in layers if layer.name in ("o-turn", "turn")]
    assert len(turns) == 9 and all(any('class="army"' in e for e in layer.elements) for layer in turns)
    for layer in turns:
        ours, theirs = (cairo.ImageSurface(cairo.FORMAT_ARGB32, *raster.picture_size(width)) for _ in range(2))
        raster._draw_turn(ours, layer, width)
        raster._draw(theirs, layer, width)
        ours.flush()
        theirs.flush()
        assert bytes(ours.get_data()) == bytes(theirs.get_data()), layer.name

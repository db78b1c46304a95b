"""What a fresh Spanish or Russian reader found in a game played by mail (issue 28,
try28d), each checked where the words come from: the catalogues, the guides, the
mail a seat gets."""
from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from pbem import i18n
from pbem.service.commands.seat import help as help_cmd


def _catalogue(language: str):
    with open(i18n.LOCALE_DIR / language / "LC_MESSAGES" / "pbem.po", "rb") as f:
        return read_po(f)


def _strings(value) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_guide_section_a_mail_names_is_named_as_the_readers_guide_titles_it(language: str) -> None:
    """The press relay sent a reader to the guide's section "Press" (English) in
    Spanish and Russian mail; every mail that names a section of the player guide names
    it as the guide of the reader's language titles it ("Prensa", "Пресса")."""
    english = [s.title for s in help_cmd.sections(help_cmd.guide_text("en"))]
    own = [s.title for s in help_cmd.sections(help_cmd.guide_text(language))]
    cited = 0
    for message in _catalogue(language):
        for title, translated in zip(english, own, strict=True):
            if message.id and any(f'"{title}"' in i for i in _strings(message.id)):
                cited += 1
                for said in _strings(message.string):
                    assert f'"{title}"' not in said and re.search(f'["«]{re.escape(translated)}["»]', said), \
                        (title, said)
    assert cited >= 5


@pytest.mark.parametrize(("language", "name"), [("es", "Seutes se rebela"), ("ru", None), ("en", "Seuthes Rebels")])
def test_a_garrison_a_card_removed_names_the_card_in_the_readers_language(language: str, name: str | None) -> None:
    """#37 Seuthes Rebels takes garrisons off the map; the report said "(Seuthes Rebels,
    R-16)" in Spanish and Russian mail (the log keeps the card's English name)."""
    from pbem.pack.loader import load_pack
    from pbem.pack.names import localized
    from pbem.report.narrate import narrate
    from pbem.rules.core.state import Event
    pack = load_pack()
    local = localized(pack, language)
    said = narrate(local, Event("GarrisonRemoved", {"seat": "east", "space": "perinthus", "rule": "R-16",
                                                    "why": pack.cards[37].name}), i18n.translations(language))
    assert local.cards[37].name in said and (language == "en" or "Seuthes" not in said), said
    if name:
        assert f"({name}, R-16)" in said, said


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_roll_for_hostile_tribes_or_an_assault_names_the_space_in_the_readers_language(language: str) -> None:
    """The rules core names the space of these two rolls by its English name ("hostile
    tribes in Isaura"), not its id; a Russian report said "Кубики 1d6: 4 — враждебные
    племена в зоне Isaura"."""
    from pbem.pack.loader import load_pack
    from pbem.pack.names import localized
    from pbem.report.context import purpose_words
    from pbem.rules.core.names import purpose_text
    pack = load_pack()
    local = localized(pack, language)
    tr = i18n.translations(language)
    for key in ("isaura", "syrian_gates", "babylon"):
        for purpose in (f"hostile tribes in {pack.spaces[key].name}", f"assault on {pack.spaces[key].name}"):
            said = purpose_words(purpose_text(local, purpose), tr)
            assert said.endswith(local.spaces[key].name), said
            assert pack.spaces[key].name == local.spaces[key].name or pack.spaces[key].name not in said, said
    assert purpose_text(pack, "assault on Isaura") == "assault on Isaura"  # English as before


_WRITTEN = re.compile(r"`([a-z_]+:?(?: [^\s`]+)?)`")
"""A command, a key or a key with its value as a player writes it (`status`,
`drop:`, `json: on|off`): the same words in every language."""


@pytest.mark.parametrize("language", ["es", "ru"])
def test_each_guide_section_names_what_the_english_one_names(language: str) -> None:
    """The Spanish and Russian guides had fallen behind the English one: their
    "Commands by mail" (what `command: help` mails) lacked `status`, `propose`, `vote`,
    `json:` and `webhook:`, the general help without `seat:` and `key:`, and `status`
    after the end; "Your player-turn" lacked `drop:` and `pick_up:`. Every command and
    key an English section names is named in the same section of the other guides."""
    english = help_cmd.sections(help_cmd.guide_text("en"))
    for ours, theirs in zip(help_cmd.sections(help_cmd.guide_text(language)), english, strict=True):
        missing = set(_WRITTEN.findall(theirs.body)) - set(_WRITTEN.findall(ours.body))
        assert not missing, (theirs.title, ours.title, sorted(missing))
    commands = next(s for s in help_cmd.sections(help_cmd.guide_text(language)) if "`command:`" in s.body
                    and "`archive`" in s.body)
    assert "`status`" in commands.body.split("`archive`")[-1]  # after the end, help, archive and status work


def test_a_spanish_command_is_a_comando_never_an_orden() -> None:
    """Orders are *órdenes*; a mail command (`command: status`, a host command) is a
    *comando* (4d456c0: command.unknown), but a dozen Spanish answers still called it
    "orden" ("Una orden del anfitrión que ahora no se aplica", "La misma orden ya se
    ejecutó", "la lista de órdenes" for the list of commands)."""
    said_command = re.compile(r"(?<![`\w])[Cc]ommands?(?![:\w])")
    orders = re.compile(r"\b[Oo]rders?\b|turn order|standing")
    for message in _catalogue("es"):
        for english, spanish in zip(_strings(message.id), _strings(message.string), strict=False):
            text = re.sub(r"`[^`]*`", "", english)
            if english and said_command.search(text) and not orders.search(text):
                assert not re.search(r"\b[Oo]rden(es)?\b", spanish), (english, spanish)


def test_a_prompts_units_in_training_are_the_readers_words() -> None:
    """A Spanish prompt said "En entrenamiento: auxiliary (1 de sus 3 PO pagados),
    phalangite (1 de sus 7 PO pagados)": the orders' words, where the reports say
    "auxiliar" and "falangita" (the glossary)."""
    import random

    from pbem import rules
    from pbem.pack.loader import load_pack
    from pbem.report import build
    from pbem.rules.core.names import unit_word
    from pbem.rules.dice import Dice
    pack = load_pack()
    seed = b"try28d-training"
    state, _events = rules.new_game(pack, seed, {})
    rng = random.Random(28)
    for _ in range(200):
        d = rules.pending(state)[0]
        training = [u for u in rules.view(state, d.seat).get("private", {}).get("training", []) if u.get("paid")]
        if training:
            break
        state, _events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng), Dice(seed, state.step))
    else:
        raise AssertionError("no seat trained a unit")
    row = {"seat": d.seat, "player": "P"}
    seats = [{"seat": s, "player": s.title()} for s in rules.SEATS]
    for language, heading in (("es", "En entrenamiento:"), ("ru", None), ("en", "In training:")):
        tr = i18n.translations(language)
        text, html = build.render_prompt(pack, state, d, game_id="g", seat_row=row, deadline="x", seats=seats, tr=tr)
        start = text.index(heading) if heading else text.index(tr.gettext("In training: %(units)s.").split("%")[0])
        line = " ".join(text[start:text.index("\n\n", start)].split())
        for u in training:
            assert unit_word(u["unit"], tr) in line, line
            if language != "en":
                assert u["unit"] not in line, line


def test_russian_words_a_reader_stumbled_on() -> None:
    """Russian: a year is "323 г. до н. э." everywhere (the standings and the report's
    heading said "323 до н. э."); a prompt's label never puts a preposition right before
    its parentheses or its list ("поставить в (space: ...)", "маркер Осуждения на
    (general: ...)", "может действовать на: Калидон", "брачное предложение от:
    Клеопатра"); the hand is secret, not "лично"."""
    bad = []
    for m in _catalogue("ru"):
        for said in _strings(m.string) if m.id else ():
            if re.search(r"\d\)?s до н\. э\.", said) and "г. до н. э." not in said:
                bad.append(said)
            if re.search(r"(?<!\w)(?:в|во|на|к|из|для) \((?!R-)", said) or \
                    re.search(r"(?<!\w)(?:в|во|на|к|от)$", said.rstrip()):
                bad.append(said)
            if "лично:" in said:
                bad.append(said)
    assert bad == [], "\n".join(bad)


def test_spanish_and_russian_welcome_ends_its_sentence_before_the_example() -> None:
    for language, said in (("es", "es así:"), ("ru", "выглядит так:")):
        for m in _catalogue(language):
            if m.id and str(m.id).endswith("An orders mail looks like"):
                assert str(m.string).endswith(said), m.string


@pytest.mark.parametrize(("language", "reason", "rule"), [("es", "motivo", "regla: decisión del anfitrión"),
                                                           ("ru", "причина", "правило: решение ведущего"),
                                                           ("en", "reason", "rule: host")])
def test_the_result_box_says_its_details_in_the_readers_language(language: str, reason: str, rule: str) -> None:
    """The final report's result box said "reason: los demás se rindieron" and "rule:
    host" in a Spanish mail (the result's keys as the log writes them)."""
    from pbem.pack.loader import load_pack
    from pbem.report.context import result_summary
    rows = [{"seat": s, "player": s.title(), "vp": 0, "lp": 0} for s in ("north", "east", "south", "west")]
    box = result_summary(load_pack(), {"result": {"winner": "north", "how": "win", "reason": "x", "rule": "host"}},
                         rows, i18n.translations(language))
    lines = [f"{k}: {v}" for k, v in box["details"]]
    assert lines == [f"{reason}: x", rule], lines


def test_a_russian_status_of_a_finished_game_waits_for_nobody() -> None:
    """`command: status` of a finished game said "ждёт: ни одно место" (a nominative
    after a negated verb); it waits for nobody: "ждёт: никого"."""
    ru = i18n.translations("ru")
    said = ru.gettext("Game %(game)s is %(status)s at step %(step)s; it waits for %(waiting)s.") % {
        "game": "g1", "status": "окончена", "step": 47, "waiting": ru.gettext("no seat")}
    assert said.endswith("ждёт: никого."), said


@pytest.mark.parametrize(("language", "cus", "province"), [("es", "1 mercenario", "Macedonia (provincia)"),
                                                            ("ru", "1 наёмник", "Македония (провинция)"),
                                                            ("en", "1 mercenary", "Macedonia (province)")])
def test_a_prompts_pick_ups_and_provinces_are_the_readers_words(language: str, cus: str, province: str) -> None:
    """A Spanish prompt's pick-up option listed "Cícico (1 mercenary), Dascilio (1
    mercenary)", and a province an option names read "… (province)" in every
    language."""
    from pbem.pack.loader import load_pack
    from pbem.pack.names import localized
    from pbem.report.context import option_lines, place_name
    tr = i18n.translations(language)
    pack = localized(load_pack(), language)
    lines = option_lines(pack, {"pick_ups": [{"space": "cyzicus", "cus": {"mercenary": 1}}]}, tr)
    assert lines[0]["items"] == [f"{pack.spaces['cyzicus'].name} ({cus})"], lines
    assert place_name(pack, "macedonia", tr) == province


def test_a_russian_training_payment_names_its_units_in_the_nominative() -> None:
    """"east платит 2 ОО на 1 вспомогательный воин и 2 ОО на 1 фалангит в обучении":
    after "на" the units need the accusative (animate: "фалангита"); the sentence now
    names them after a colon and a dash, in the nominative."""
    from pbem.pack.loader import load_pack
    from pbem.pack.names import localized
    from pbem.report.narrate import narrate
    from pbem.rules.core.state import Event
    said = narrate(localized(load_pack(), "ru"), Event("TrainingPaid", {
        "seat": "east", "rule": "R-8.4", "paid": [{"unit": "auxiliary", "ops": 2}, {"unit": "phalangite", "ops": 2}]}),
        i18n.translations("ru"))
    assert said == "east платит за обучение: 2 ОО — 1 вспомогательный воин и 2 ОО — 1 фалангит (R-8.4).", said


@pytest.mark.parametrize(("language", "said"), [("es", "para empate en el orden de turno: north"),
                                                ("ru", "— ничья в порядке хода: north"),
                                                ("en", "for turn order tie: north")])
def test_the_html_reports_die_rolls_say_their_purpose_in_the_readers_language(language: str, said: str) -> None:
    """The HTML part of a Spanish or Russian report said "para turn order tie: north"
    and "для: turn order tie: north" (the text part was translated)."""
    from pbem import rules
    from pbem.pack.loader import load_pack
    from pbem.report import build
    pack = load_pack()
    state, events = rules.new_game(pack, b"try28d-dice", {})
    rows = [{"seat": s, "player": s.title()} for s in rules.SEATS]
    tied = [e for e in events if e.kind == "DiceRolled" and "turn order tie" in str(e.data.get("purpose"))]
    assert tied
    out = build.render_report(pack, state, events, game_id="g", step=0, seat="north", seats=rows, headline="h",
                              seed_commitment="0" * 64, tr=i18n.translations(language))
    assert said in out.html and (language == "en" or "turn order tie" not in out.html), out.html[:2000]


@pytest.mark.parametrize("language", ["es", "ru"])
def test_a_changed_garrison_is_set_apart_from_its_space(language: str) -> None:
    """The control lines' changes read "cambios: Iso guarnición de west retirada" and
    "изменения: Исс гарнизон west снят" (the space's name run into the garrison's):
    a dash sets them apart ("Iso — guarnición de west retirada")."""
    from pbem.report.account import _garrison
    tr = i18n.translations(language)
    assert _garrison("west", None, tr).startswith("— ") and _garrison("west", "east", tr).startswith("— ")
    assert not _garrison(None, "east", tr).startswith("—")  # "Iso ahora de east" reads as it is
    assert _garrison("west", None, i18n.translations("en")) == "west's garrison removed"  # English as before


@pytest.mark.parametrize(("language", "said"), [
    ("ru", "north ведёт армию (Леоннат): Даскилий -> Кизик."),
    ("es", "north mueve el ejército de Leonato: Dascilio -> Cícico."),
    ("en", "north moves Leonnatus's army Dascylium -> Cyzicus.")])
def test_an_army_moves_general_is_set_apart_from_its_path(language: str, said: str) -> None:
    """lang28e item 1: "north ведёт армию Леоннат Даскилий -> Кизик" ran the general's
    name into the path (and "el ejército de Leonato Dascilio ->"): the name stands in
    the nominative in parentheses in Russian, and a colon ends the mover before the path."""
    from pbem.pack.loader import load_pack
    from pbem.pack.names import localized
    from pbem.report.narrate import narrate
    from pbem.rules.core.state import Event
    local = localized(load_pack(), language)
    event = Event("ArmyMoved", {"seat": "north", "generals": ["leonnatus"], "path": ["dascylium", "cyzicus"]})
    assert narrate(local, event, i18n.translations(language)) == said
    if language != "en":
        with_cus = narrate(local, Event("ArmyMoved", {**event.data, "cus": {"mercenary": 3}}),
                           i18n.translations(language))
        assert with_cus.startswith(said[:-1]), with_cus

"""``command: help`` in the seat's language (issue 28): the player guide exists in
Spanish and Russian with the same sections and ``help:`` tags, pbem ships all three,
and a Russian seat's help comes in Russian through the real mail path (pymap and
aiosmtpd on loopback)."""
from __future__ import annotations

import re
from pathlib import Path

from pbem.service.commands.seat import help as help_cmd
from tests.conftest import KEYS
from tests.service.cmdmail import text
from tests.service.test_languages import LANGUAGES, _start

ROOT = Path(__file__).resolve().parents[2]


def test_the_guide_in_each_language_has_the_same_sections_and_is_shipped() -> None:
    english = help_cmd.sections(help_cmd.guide_text("en"))
    for language in ("es", "ru"):
        name = help_cmd.guide_name(language)
        assert name == f"player-guide.{language}.md"
        assert (ROOT / "templates" / name).read_text() == (ROOT / "docs" / name).read_text(), \
            "run python tools/player_guide.py"
        parts = help_cmd.sections(help_cmd.guide_text(language))
        assert [(s.level, s.tags) for s in parts] == [(s.level, s.tags) for s in english]
        assert not {s.title for s in parts} & {s.title for s in english}  # every heading translated
        for kind in (None, "intercept", *help_cmd.KINDS):
            for chosen in help_cmd.help_text(kind, parts):
                assert max(len(line) for line in chosen.splitlines()) <= 72, chosen
        # the YAML examples keep the English keys a player writes (issue 28 item 5)
        keys = lambda t: sorted({k for block in re.findall(r"(?s)```\n(.*?)```", t)  # noqa: E731
                                 for k in re.findall(r"(?m)^([a-z_]+):", block)})
        assert keys(help_cmd.guide_text(language)) == keys(help_cmd.guide_text("en"))


def test_a_russian_seats_help_is_russian(tmp_path: Path) -> None:
    m = _start(tmp_path)
    try:
        seat = next(s for s, lang in LANGUAGES.items() if lang == "ru")
        m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "help"})
        assert list(m.cycle().values()) == ["answered"]
        body = text(m.mails(seat, "Re: command")[0])
        assert body.startswith(f"Справка для места {seat}. Партия g1 на шаге 0"), body[:300]
        assert "КОМАНДЫ ПО ПОЧТЕ" in body and "ПРЕССА" in body and "ВАША РУКА" in body
        assert "COMMANDS BY MAIL" not in body and "Help for seat" not in body and "YOUR HAND" not in body
        assert "КАК ПИСАТЬ ПРИКАЗЫ в вашем запросе" in " ".join(body.split())  # what a player has (issue 24 N11)
        assert max(len(line) for line in body.splitlines()) <= 72
    finally:
        m.close()


def test_the_general_help_comes_in_the_senders_language(tmp_path: Path) -> None:
    """try28: `command: help` without `seat:` and `key:` (the general part of the guide)
    came in English to a Russian seat's own address; now in that seat's language (its
    signature too), and in English to an address that holds no seat."""
    m = _start(tmp_path)
    try:
        seat = next(s for s, lang in LANGUAGES.items() if lang == "ru")
        m.send(seat, {"game": "g1", "command": "help"}, "ayuda")
        m.send("newhome", {"game": "g1", "command": "help"}, "help")
        assert list(m.cycle().values()) == ["answered"] * 2
        ru = text(m.mails(seat, "Re: ayuda")[0])
        assert ru.startswith("Справка судьи. В вашем письме нет места и ключа"), ru[:300]
        assert "Help from the judge" not in ru and "docs/player-guide.ru.md" in " ".join(ru.split())
        assert "JOINING AN OPEN GAME" not in ru and "SUBSTITUTES" not in ru, ru[:900]
        assert "судья pbem" in ru and "pbem judge" not in ru  # the signature too
        en = text(m.mails("newhome", "Re: help")[0])
        assert en.startswith("Help from the judge. Your mail carried no seat and key"), en[:300]
        assert "docs/player-guide.md" in " ".join(en.split()) and "JOINING AN OPEN GAME" in en
        assert max(len(line) for line in (ru + en).splitlines()) <= 72
    finally:
        m.close()


def test_a_mail_without_a_game_is_answered_in_the_senders_language(tmp_path: Path) -> None:
    """try28: a bare `command: help` (no `game:` line) from a Russian seat's address
    was refused in English; the refusal now comes in the language of the seat that
    address holds (English from an address with none)."""
    m = _start(tmp_path)
    try:
        seat = next(s for s, lang in LANGUAGES.items() if lang == "ru")
        m.send(seat, "command: help\n", "bare")
        m.send("newhome", "command: help\n", "bare")
        assert list(m.cycle().values()) == ["rejected"] * 2
        ru = text(m.mails(seat, "Re: bare")[0])
        assert ru.startswith("Ваше письмо \"bare\" не применено"), ru[:300]
        assert "We found no orders" not in ru and "pbem judge" not in ru, ru
        en = text(m.mails("newhome", "Re: bare")[0])
        assert en.startswith("Your mail \"bare\" was not applied"), en[:300]
    finally:
        m.close()


def test_the_guides_examples_name_things_in_the_guides_language() -> None:
    """try28e: the Spanish and Russian guides' movement example wrote
    ``pick_up: {at: Gaza, royals: [Heracles]}`` and ``drop: {at: Space, ...}`` in
    English (Russian: Газа, Геракл; the prompts' placeholder is Espacio / Зона), and
    their map section showed an army's box as "Ptolemy 8" (the map's labels are the
    reader's: Ptolomeo, Птолемей). No place, province, general, royal, fleet,
    independent army or card of the es/ru guide is named in English unless in
    parentheses after its own name ("Византий (Byzantium)"), and no English
    placeholder in its examples."""
    from pbem.pack.loader import load_pack
    from pbem.pack.names import localized

    pack = load_pack()
    sections = ("spaces", "provinces", "generals", "royals", "fleets", "independent_armies")
    for language, placeholder in (("es", "Espacio"), ("ru", "Зона")):
        local = localized(pack, language)
        english = {v.name for section in sections for k, v in getattr(pack, section).items()
                   if getattr(local, section)[k].name != v.name}
        english |= {c.name for k, c in pack.cards.items() if local.cards[k].name != c.name}
        guide = help_cmd.guide_text(language)
        for line in guide.splitlines():
            named = [n for n in english if re.search(r"(?<![\w(])" + re.escape(n) + r"(?!\w)", line)]
            assert not named, (language, named, line)
        spans = re.findall(r"`([^`\n]*\{[^`\n]*)`", guide)  # inline flow-YAML examples
        assert spans
        for span in spans:
            assert "Space" not in re.findall(r"\w+", span), (language, span)
        assert f"drop: {{at: {placeholder}, ...}}" in guide

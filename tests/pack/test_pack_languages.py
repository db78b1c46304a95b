"""The pack's names in its declared languages (issue 28, item 4): ``languages.yaml`` and
``names.<code>.yaml``, checked by ``pbem data check``; the rendering copy
(:func:`pbem.pack.names.localized`) and the look-up of a name in any language."""
from __future__ import annotations

import re
from pathlib import Path

import yaml
from click.testing import CliRunner

from pbem.cli import data_group as data
from pbem.pack import names
from pbem.pack.loader import load_pack
from pbem.pack.model import Pack


def _export(tmp_path: Path) -> Path:
    out = tmp_path / "pack"
    result = CliRunner().invoke(data, ["export", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_the_builtin_pack_declares_three_languages_each_complete(pack: Pack) -> None:
    assert pack.languages == ("en", "es", "ru")
    for code in ("es", "ru"):
        table = pack.names[code]
        assert set(table["spaces"]) == set(pack.spaces)
        assert set(table["provinces"]) == set(pack.provinces)
        assert set(table["generals"]) == set(pack.generals)
        assert set(table["cards"]) == set(pack.cards) == set(table["card_texts"])
    # the seeds' words: Spanish aid 001 (argiráspidas, Motín), Russian aid 004 (Мятеж, Вавилон)
    assert pack.names["es"]["special_units"]["silver_shields"] == "Argiráspidas"
    assert pack.names["es"]["cards"][16] == "Motín"
    assert pack.names["ru"]["cards"][16] == "Мятеж"
    assert pack.names["ru"]["spaces"]["babylon"] == "Вавилон"
    # every Russian name is written in Cyrillic (the map's labels are the seat's script)
    for section in ("spaces", "provinces", "generals"):
        for key, name in pack.names["ru"][section].items():
            assert re.search("[А-Яа-яЁё]", name) and not re.search("[A-Za-z]", name), (section, key, name)


def test_check_fails_naming_each_entry_without_a_name_or_text(tmp_path: Path) -> None:
    out = _export(tmp_path)
    es = yaml.safe_load((out / "names.es.yaml").read_text(encoding="utf-8"))
    del es["spaces"]["pella"]
    del es["cards"][18]["text"]
    es["generals"]["nobody"] = "Nadie"
    (out / "names.es.yaml").write_text(yaml.safe_dump(es, allow_unicode=True), encoding="utf-8")
    ru = yaml.safe_load((out / "names.ru.yaml").read_text(encoding="utf-8"))
    ru["provinces"]["crete"] = ru["provinces"]["cyprus"]  # two provinces one name
    del ru["cards"][57]
    (out / "names.ru.yaml").write_text(yaml.safe_dump(ru, allow_unicode=True), encoding="utf-8")
    result = CliRunner().invoke(data, ["check", str(out)])
    assert result.exit_code == 1
    text = result.output
    assert "names.es.yaml: spaces.pella: has no name in 'es'" in text
    assert "names.es.yaml: cards.18: has no text in this language" in text
    assert "names.es.yaml: generals.nobody: no general 'nobody' in the pack" in text
    assert "names.ru.yaml: cards.57: has no name and text in this language" in text
    assert "names.ru.yaml: provinces.cyprus: the name 'Кипр' is also the name of 'crete'" in text
    assert "5 problem(s)" in text


def test_a_declared_language_needs_its_names_file(tmp_path: Path) -> None:
    out = _export(tmp_path)
    (out / "languages.yaml").write_text("languages: [en, es, ru, de]\n", encoding="utf-8")
    result = CliRunner().invoke(data, ["check", str(out)])
    assert result.exit_code == 1
    assert "names.de.yaml: file is missing" in result.output
    # without languages.yaml the pack is English only, and checks as before
    (out / "languages.yaml").unlink()
    assert load_pack(out).languages == ("en",)
    result = CliRunner().invoke(data, ["check", str(out)])
    assert result.exit_code == 0, result.output
    assert "languages: en " in result.output


def test_localized_pack_renames_but_keeps_the_game(pack: Pack) -> None:
    ru = names.localized(pack, "ru")
    assert ru is names.localized(pack, "ru") and ru.canonical is pack and ru.language == "ru"
    assert names.localized(pack, "en") is pack and names.localized(pack, "xx") is pack
    qps = names.localized(pack, "qps")  # the pseudo-language: the cards' names and texts marked (issue 28)
    assert qps.cards[47].name == f"⟦{pack.cards[47].name}⟧" and qps.cards[47].text == f"⟦{pack.cards[47].text}⟧"
    assert qps.cards[57].text == "none" and qps.spaces["ecbatana"].name == "Ecbatana"
    assert ru.spaces["ecbatana"].name == "Экбатаны" and ru.provinces["media"].name == "Мидия"
    assert ru.cards[47].name == "Дар Оратора" and ru.cards[47].text.startswith("+5 престижа")
    assert ru.cards[57].text == "none"  # an OPs-only card stays one
    assert ru.spaces["ecbatana"].kind == pack.spaces["ecbatana"].kind and ru.paths is pack.paths
    assert pack.spaces["ecbatana"].name == "Ecbatana"  # the loaded pack is untouched
    assert names.both(ru, "spaces", "babylon") == "Вавилон (Babylon)"
    assert names.both(names.localized(pack, "es"), "spaces", "ecbatana") == "Ecbatana"


def test_lookup_in_any_language_case_and_accents_ignored(pack: Pack) -> None:
    assert names.lookup(pack, "spaces", "Alejandría") == "alexandria"
    assert names.lookup(pack, "spaces", "alejandria") == "alexandria"
    assert names.lookup(pack, "spaces", "ВАВИЛОН") == "babylon"
    assert names.lookup(pack, "spaces", "Puertas Cilicias") == "cilician_gates"
    assert names.lookup(pack, "provinces", "Babilonia") == "babylonia"
    assert names.lookup(pack, "generals", "Птолемей") == "ptolemy"
    assert names.lookup(pack, "generals", "Eumenes") == "eumenes"
    assert names.lookup(pack, "cards", "motin") == 16
    assert names.lookup(pack, "spaces", "Atlantis") is None
    # a folded form two entries share is no match: only the exact spelling is
    assert names.fold("Ёлка") == "елка" and names.fold("Alejandría_Ariana") == "alejandria ariana"

"""The pack's names in its other languages (issue 28): reading them, checking them,
showing a pack in one language and finding a thing by any of its names.

A pack declares its languages in ``languages.yaml`` (``languages: [en, es, ru]``; a pack
without the file is English only). English is the canonical language: the names of
``spaces.yaml``, ``cards.yaml`` ... are what orders' YAML, the log and the archive use.
Every other declared language has ``names.<code>.yaml`` holding a name for every
province, space, general and card and a text for every card (``none`` for a card with no
event, as in cards.yaml), and optionally names for the royal family, the independent
armies, the fleets and the special units (one missing reads in English). The loader
checks all of it (:func:`read`): ``pbem data check`` names each entry that lacks a name.

Two uses:

- **Rendering** (:func:`localized`): the pack with its names and card texts in one
  language, a copy the rules never see; the mail of a seat is rendered from it, so every
  place, general and card a report, a prompt or a map picture names reads in the seat's
  language. Cached: one object per pack and language, so the map's per-pack caches hold
  one set of layers per language.
- **Orders** (:func:`lookup`): a place, general or card given by its name in any of the
  pack's languages, case ignored and, where no other entry folds to the same letters,
  accents and diacritics too (``Alejandria`` is Alejandría, ``Экбатаны`` any case);
  the receipt then echoes the canonical (English) name.
"""
from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from pbem import i18n
from pbem.pack.model import Pack

CANONICAL = "en"
"""The language of the pack's own files: the canonical names."""

LANGUAGES_FILE = "languages.yaml"
"""The file that declares a pack's languages (optional: none means English only)."""

REQUIRED: tuple[str, ...] = ("provinces", "spaces", "generals", "cards")
"""Sections every ``names.<code>.yaml`` must give in full (cards: a name and a text)."""

OPTIONAL: tuple[str, ...] = ("royals", "independent_armies", "fleets", "special_units")
"""Sections a ``names.<code>.yaml`` may give; an entry missing reads in English."""

SECTIONS: tuple[str, ...] = REQUIRED + OPTIONAL
"""Every section of a names file, each named after the :class:`Pack` table it names."""


def names_file(language: str) -> str:
    """The file holding ``language``'s names: ``names.<code>.yaml``."""
    return f"names.{language}.yaml"


def fold(text: str) -> str:
    """``text`` as names are compared without case and diacritics: Unicode
    case-folded, NFKD-decomposed with the combining marks dropped (``Alejandría`` ->
    ``alejandria``, ``Ёлка`` -> ``елка``), underscores as spaces, runs of spaces as one."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.replace("_", " ").split())


def _key(text: str) -> str:
    """``text`` compared exactly but for case and spacing (``_`` as a space)."""
    return " ".join(text.casefold().replace("_", " ").split())


# --------------------------------------------------------------------------- reading
def read(reader: Any, tables: Mapping[str, Mapping[Any, tuple[str, dict[str, Any]]]]
         ) -> tuple[tuple[str, ...], dict[str, dict[str, dict[Any, str]]]]:
    """Read and check ``languages.yaml`` and each declared language's names file with
    ``reader`` (the loader's problem collector: ``read_file(name)``, ``err(where,
    text)``, ``root``); ``tables``: the schema-checked entries by section (``"cards"``
    keyed by number). Returns ``(languages, names)``, ``names[language][section][id]``
    the name (``"card_texts"`` the cards' texts), English first from the entries
    themselves. Problems (a missing name or text, an unknown id, a name two entries of
    one kind share, a language declared twice or without English) go to ``reader.err``."""
    english: dict[str, dict[Any, str]] = {s: {k: e["name"] for k, (_, e) in tables[s].items()} for s in SECTIONS}
    english["card_texts"] = {k: e["event"] for k, (_, e) in tables["cards"].items()}
    names: dict[str, dict[str, dict[Any, str]]] = {CANONICAL: english}
    if not (reader.root / LANGUAGES_FILE).is_file():
        return (CANONICAL,), names
    doc = reader.read_file(LANGUAGES_FILE)
    declared = doc.get("languages") if doc else None
    if not isinstance(declared, list) or not all(isinstance(x, str) and x for x in declared):
        if doc:
            reader.err(LANGUAGES_FILE, "'languages' must be a list of language codes, e.g. [en, es, ru]")
        return (CANONICAL,), names
    if CANONICAL not in declared:
        reader.err(LANGUAGES_FILE, f"'languages' must list {CANONICAL!r}: the names of the pack's own files")
    for code in sorted({x for x in declared if declared.count(x) > 1}):
        reader.err(LANGUAGES_FILE, f"language {code!r} is listed twice")
    languages = tuple(dict.fromkeys([CANONICAL, *declared]))
    for language in languages[1:]:
        got = _read_language(reader, language, tables, english)
        if got is not None:
            names[language] = got
    _check_clashes(reader, names)
    return languages, names


def _read_language(reader: Any, language: str, tables: Mapping[str, Mapping[Any, Any]],
                   english: Mapping[str, Mapping[Any, str]]) -> dict[str, dict[Any, str]] | None:
    fname = names_file(language)
    doc = reader.read_file(fname)
    if not doc:
        return None
    if doc.get("language", language) != language:
        reader.err(fname, f"'language' is {doc.get('language')!r}, but the file is {language!r}'s")
    for section in doc:
        if section not in (*SECTIONS, "language"):
            reader.err(fname, f"unknown section {section!r} (one of {', '.join(SECTIONS)})")
    out: dict[str, dict[Any, str]] = {}
    for section in SECTIONS:
        given = doc.get(section)
        if given is None:
            given = {}
            if section in REQUIRED:
                reader.err(fname, f"section {section!r} is missing")
        if not isinstance(given, dict):
            reader.err(f"{fname}: {section}", "must be a mapping of id -> name")
            given = {}
        known = tables[section]
        for key in given:
            if key not in known:
                reader.err(f"{fname}: {section}.{key}", f"no {section[:-1].replace('_', ' ')} {key!r} in the pack")
        table: dict[Any, str] = {}
        texts: dict[Any, str] = {}
        for key in known:
            where = f"{fname}: {section}.{key}"
            value = given.get(key)
            if section == "cards":
                name, text = _card_entry(reader, where, value, english["card_texts"][key])
                if name:
                    table[key] = name
                if text:
                    texts[key] = text
                continue
            if value is None:
                if section in REQUIRED:
                    reader.err(where, f"has no name in {language!r}")
                continue
            if not isinstance(value, str) or not value.strip():
                reader.err(where, f"the name must be a non-empty string, got {value!r}")
                continue
            table[key] = value.strip()
        out[section] = table
        if section == "cards":
            out["card_texts"] = texts
    return out


def _card_entry(reader: Any, where: str, value: Any, english_text: str) -> tuple[str | None, str | None]:
    """A card's ``{name, text}`` (both required); problems to ``reader``."""
    if not isinstance(value, dict):
        reader.err(where, "has no name and text in this language (write {name: ..., text: ...})"
                   if value is None else f"must be a mapping {{name: ..., text: ...}}, got {value!r}")
        return None, None
    for fld in value:
        if fld not in ("name", "text"):
            reader.err(where, f"unknown field {fld!r} (name, text)")
    name, text = value.get("name"), value.get("text")
    if not isinstance(name, str) or not name.strip():
        reader.err(where, "has no name in this language" if name is None else f"field 'name' must be a non-empty string, got {name!r}")
        name = None
    if not isinstance(text, str) or not text.strip():
        reader.err(where, "has no text in this language" if text is None else f"field 'text' must be a non-empty string, got {text!r}")
        text = None
    elif (text.strip() == "none") != (english_text == "none"):
        reader.err(where, "text 'none' (no event) must match cards.yaml: "
                   + ("the card has no event there" if english_text == "none" else "the card has an event there"))
    return (name.strip() if name else None), (text.strip() if text else None)


def _check_clashes(reader: Any, names: Mapping[str, Mapping[str, Mapping[Any, str]]]) -> None:
    """Two entries of one kind that share a name (case ignored), in any two languages,
    could not be told apart in orders (cards excepted: the hand tells them apart)."""
    for section in SECTIONS:
        if section == "cards":
            continue
        seen: dict[str, tuple[str, Any]] = {}
        for language, table in names.items():
            for key, name in table.get(section, {}).items():
                k = _key(name)
                first = seen.setdefault(k, (language, key))
                if first[1] != key:
                    where = (f"{names_file(language)}: {section}.{key}" if language != CANONICAL
                             else f"{section}.{key}")
                    reader.err(where, f"the name {name!r} is also the name of {first[1]!r} "
                               f"({first[0]}); orders could not tell them apart")


# --------------------------------------------------------------------------- rendering
_LOCALIZED: dict[tuple[int, str], tuple[Pack, Pack]] = {}


def localized(pack: Pack, language: str) -> Pack:
    """``pack`` with the names and card texts of ``language`` (for rendering a mail;
    the rules never see it): provinces, spaces, generals, cards (name and text) and the
    optional tables, each entry missing in ``language`` kept in English. Returns
    ``pack`` itself for English and for a language the pack does not declare; the
    pseudo-language gets the cards' names and texts marked (:func:`_pseudo_table`). Cached per pack and language: the same object every
    time, so caches keyed by the pack (the map's layers) keep one entry per language."""
    base = pack.canonical or pack
    table = base.names.get(language)
    if language == i18n.PSEUDO:  # the cards marked, so a test sees where a card is named from the wrong pack
        table = _pseudo_table(base)
    if language == CANONICAL or not table:
        return base
    hit = _LOCALIZED.get((id(base), language))
    if hit is not None and hit[0] is base:
        return hit[1]

    def renamed(entries: Mapping[Any, Any], section: str, more: Callable[[Any], dict[str, Any]] | None = None
                ) -> Mapping[Any, Any]:
        given = table.get(section, {})
        return MappingProxyType({
            k: dataclasses.replace(v, name=given.get(k, v.name), **(more(k) if more else {}))
            for k, v in entries.items()})

    texts = table.get("card_texts", {})
    out = dataclasses.replace(
        base,
        provinces=renamed(base.provinces, "provinces"),
        spaces=renamed(base.spaces, "spaces"),
        generals=renamed(base.generals, "generals"),
        royals=renamed(base.royals, "royals"),
        independent_armies=renamed(base.independent_armies, "independent_armies"),
        fleets=renamed(base.fleets, "fleets"),
        special_units=renamed(base.special_units, "special_units"),
        cards=renamed(base.cards, "cards", lambda n: {"text": texts.get(n, base.cards[n].text)}),
        language=language, canonical=base,
    )
    _LOCALIZED[(id(base), language)] = (base, out)
    return out


def _pseudo_table(base: Pack) -> dict[str, dict[Any, str]]:
    """The names table of :data:`pbem.i18n.PSEUDO` (issue 28): every card's name and
    text in English inside the pseudo-language's marks (``⟦Ambush⟧``), so a mail that
    names a card from the canonical pack instead of the reader's shows it unmarked
    (tests/service/test_pseudo_locale.py); the other names as they are."""
    return {"cards": {n: f"{i18n.OPEN}{c.name}{i18n.CLOSE}" for n, c in base.cards.items()},
            "card_texts": {n: c.text if c.text == "none" else f"{i18n.OPEN}{c.text}{i18n.CLOSE}"
                           for n, c in base.cards.items()}}


def both(pack: Pack, section: str, key: Any) -> str:
    """An entry's name in ``pack``'s language with the canonical one after it where
    they differ (``"Вавилон (Babylon)"``), as prose may write it so a player finds the
    name the orders' template uses; just the name in an English pack."""
    name = getattr(pack, section)[key].name
    base = pack.canonical
    if base is None:
        return name
    english = getattr(base, section)[key].name
    return name if fold(name) == fold(english) else f"{name} ({english})"


# --------------------------------------------------------------------------- orders
_INDEX: dict[tuple[int, str], tuple[Pack, dict[str, Any], dict[str, Any]]] = {}


def _index(pack: Pack, section: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(exact, folded)``: every name of ``section`` in every language (and the ids)
    by :func:`_key` and by :func:`fold`; a folded form two entries share is left out."""
    base = pack.canonical or pack
    hit = _INDEX.get((id(base), section))
    if hit is not None and hit[0] is base:
        return hit[1], hit[2]
    exact: dict[str, Any] = {}
    folded: dict[str, Any] = {}
    clash: set[str] = set()
    entries = getattr(base, section)
    pairs = [(str(k), k) for k in entries] + [
        (name, k) for table in base.names.values() for k, name in table.get(section, {}).items()]
    if not base.names:
        pairs += [(v.name, k) for k, v in entries.items()]
    for name, k in pairs:
        exact.setdefault(_key(name), k)
        f = fold(name)
        if folded.setdefault(f, k) != k:
            clash.add(f)
    for f in clash:
        del folded[f]
    _INDEX[(id(base), section)] = (base, exact, folded)
    return exact, folded


def lookup(pack: Pack, section: str, text: object) -> Any:
    """The id (a card's number) of the entry of ``section`` (``"spaces"``,
    ``"provinces"``, ``"generals"``, ``"royals"``, ``"fleets"``, ``"cards"`` ...)
    that ``text`` names in any of the pack's languages: by id or name, case and spacing
    ignored (``_`` as a space), else by the name without accents and diacritics when
    only one entry has those letters; None when nothing matches or ``text`` is not a
    string. Cards of one name (three Unrest) give the first: a hand tells them apart
    (:func:`names_of`)."""
    if not isinstance(text, str) or section not in (*SECTIONS,):
        return None
    exact, folded = _index(pack, section)
    hit = exact.get(_key(text))
    return hit if hit is not None else folded.get(fold(text))


def names_of(pack: Pack, section: str, key: Any) -> set[str]:
    """Every name of an entry, in every language, folded (:func:`fold`): to tell
    whether a text names a given card of a hand."""
    base = pack.canonical or pack
    out = {fold(getattr(base, section)[key].name)}
    out.update(fold(t[section][key]) for t in base.names.values() if key in t.get(section, {}))
    return out


def names_in_every_language(pack: Pack, section: str, key: Any) -> list[str]:
    """An entry's names in the pack's other languages (not folded: as a hint may
    compare them), the canonical one left out."""
    base = pack.canonical or pack
    return [t[section][key] for language, t in base.names.items()
            if language != CANONICAL and key in t.get(section, {})]


def every_name(pack: Pack, section: str) -> dict[str, Any]:
    """Every name of ``section`` in every language of the pack, and every id, each in
    lower case (spacing as :func:`lookup` compares it) with the id it names: what a
    "did you mean" hint searches, so a misspelling in any language finds its entry
    (``Византия`` -> ``byzantium``; issue 28)."""
    return dict(_index(pack, section)[0])


def shown_name(pack: Pack, language: str, name: str) -> str:
    """A name a check gave in its canonical (English) form, as a reader of
    ``language`` finds it: the entry's name in that language with the canonical one
    after it where they differ (:func:`both`: ``"Bizancio (Byzantium)"``), a card's
    label ``#12 Name`` likewise (``"#64 Fundación de la capital (Foundation of the
    Capital)"``); the name itself when no entry has it, or in English (issue 28)."""
    base = pack.canonical or pack
    local = localized(base, language)
    if local is base:
        return name
    card = _CARD_LABEL.fullmatch(name)
    if card and int(card.group(1)) in base.cards and base.cards[int(card.group(1))].name == card.group(2):
        return f"#{card.group(1)} {both(local, 'cards', int(card.group(1)))}"
    for section in ("spaces", "provinces", "generals", "royals", "fleets", "independent_armies", "special_units"):
        key = next((k for k, v in getattr(base, section).items() if v.name == name), None)
        if key is not None:
            return both(local, section, key)
    return name


_CARD_LABEL = re.compile(r"#(\d+) (.+)")


def all_names(pack: Pack, section: str) -> list[str]:
    """Every name of ``section`` in every language (for a "did you mean" hint)."""
    base = pack.canonical or pack
    out = [v.name for v in getattr(base, section).values()]
    for table in base.names.values():
        out += list(table.get(section, {}).values())
    return list(dict.fromkeys(out))


__all__ = [
    "CANONICAL",
    "LANGUAGES_FILE",
    "OPTIONAL",
    "REQUIRED",
    "SECTIONS",
    "all_names",
    "both",
    "every_name",
    "names_in_every_language",
    "fold",
    "localized",
    "lookup",
    "names_file",
    "names_of",
    "read",
    "shown_name",
]

"""Tables and prose of a report in Spanish and Russian (issue 28, text28): a name longer
than the English ones keeps the royal family's and the fleets' columns apart, and the
CU types of the armies are said in the reader's language."""
from __future__ import annotations

import re

from pbem import i18n, rules
from pbem.pack.loader import load_pack
from pbem.pack.names import localized
from pbem.report import build
from tests.report.test_golden import COMMITMENT, SEATS_ROWS

HEADINGS = {"es": ("FAMILIA REAL", "FLOTAS"), "ru": ("КОРОЛЕВСКАЯ СЕМЬЯ", "ФЛОТЫ")}


def _report(language: str) -> str:
    pack = load_pack()
    state, events = rules.new_game(pack, b"layout-1", {})
    return build.render_report(pack, state, events, game_id="g1", step=0, seat="north", seats=SEATS_ROWS,
                               headline="setup", seed_commitment=COMMITMENT, tr=i18n.translations(language)).text


def _block(text: str, heading: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    out = []
    for line in lines[start + 1:]:
        if not line.startswith("  ") or line.strip().startswith(("Fuerza", "Сила", "Strength")):
            break
        out.append(line)
    return out


def _second_column(rows: list[str], names: list[str]) -> set[int]:
    """Where the second column starts in each row (after the row's name and its padding)."""
    starts = set()
    for row in rows:
        name = next(n for n in sorted(names, key=len, reverse=True) if row[2:].startswith(n))
        rest = row[2 + len(name):]
        assert rest.startswith(" "), f"the name runs into the next column: {row!r}"
        starts.add(2 + len(name) + len(rest) - len(rest.lstrip(" ")))
    return starts


def test_royal_family_and_fleet_columns_line_up() -> None:
    pack = load_pack()
    for language, (royals, fleets) in HEADINGS.items():
        text, local = _report(language), localized(pack, language)
        rows = _block(text, royals)
        assert len(rows) == len(pack.royals), rows
        assert len(_second_column(rows, [r.name for r in local.royals.values()])) == 1, "\n".join(rows)
        rows = _block(text, fleets)
        assert len(rows) == len(pack.fleets), rows
        assert len(_second_column(rows, [f.name for f in local.fleets.values()])) == 1, "\n".join(rows)
    assert "Cuerpo de Alejandro" in _report("es")  # the name longer than the English column


def test_the_armies_cu_types_in_the_readers_language() -> None:
    english = _report("en")
    assert re.search(r"\b\d+ loyal\b", english) and re.search(r"\b\d+ mercenary\b", english)
    for language in ("es", "ru"):
        text = _report(language)
        armies = text[text.index("(R-12)") - 2000:text.index("(R-12)")]  # the armies come before the royals
        assert not re.search(r"\b\d+ (?:loyal|mercenary|royal|elephant)\b", armies), armies
    assert re.search(r"\b\d+ (?:leales|leal)\b", _report("es"))
    assert re.search(r"\b\d+ наёмник", _report("ru"))

"""Rewrite the "## Problem codes" section of docs/orders.md from the catalogue in
pbem/problems.py (run after adding a code; tests/test_problem_codes.py checks that every
code is listed)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.problems import CODES  # noqa: E402


def table() -> str:
    """The markdown section, one row per declared code."""
    rows = ["## Problem codes", "",
            "Every problem in a reply names its code; each code is declared once in",
            "`pbem/problems.py` with its rule. In English a reply gives each problem in",
            "the words of the check that found it; in Spanish and Russian (a seat's",
            "`language:`, issue 28) it is said by its code: a message and a fix for",
            "each code in `pbem/problem_texts.py`, translated in the catalogues, with",
            "the names and numbers the check gave (a card, a step) in their places,",
            "and the rule, the field and the code as in English. Codes of the rules core:",
            "",
            "| code | rule | what it means |", "|---|---|---|"]
    rows += [f"| `{c.code}` | {c.rule} | {c.summary} |" for c in CODES.values() if c.rule]
    rows += ["", "Codes of the mail and its envelope (no game rule; the reference says where",
             "the behaviour is documented):", "", "| code | reference | what it means |",
             "|---|---|---|"]
    rows += [f"| `{c.code}` | {c.ref} | {c.summary} |" for c in CODES.values() if not c.rule]
    return "\n".join(rows) + "\n"


def main() -> None:
    path = ROOT / "docs" / "orders.md"
    text = path.read_text()
    start = text.index("## Problem codes\n")
    end = text.index("\n## ", start + 1) + 1
    path.write_text(text[:start] + table() + "\n" + text[end:])


if __name__ == "__main__":
    main()

"""Extract the judge's translatable strings and update the catalogues (issue 28), with
Babel's own commands (babel.cfg says what is read):

    .venv/bin/python tools/catalogues.py          # extract pbem/locale/pbem.pot, update es and ru
    .venv/bin/python tools/catalogues.py --check  # exit 1 when the .pot is not up to date

A new msgid enters each catalogue untranslated (no fuzzy matching): the catalogue test
(tests/test_i18n.py) then fails until it is translated.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "pbem" / "locale" / "pbem.pot"
PYBABEL = str(Path(sys.executable).parent / "pybabel")


def extract(out: Path) -> None:
    """Write the template of every translatable string to ``out``."""
    subprocess.run([PYBABEL, "-q", "extract", "-F", "babel.cfg", "-k", "N_", "-o", str(out), "--no-location",
                    "--omit-header", "--sort-output", "."], cwd=ROOT, check=True)


def main(argv: list[str]) -> int:
    """Extract and update (or with ``--check`` compare the template); the exit status."""
    if "--check" in argv:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp) / "pbem.pot"
            extract(fresh)
            same = fresh.read_text(encoding="utf-8") == POT.read_text(encoding="utf-8")
        print("up to date" if same else "pbem/locale/pbem.pot is out of date: run python tools/catalogues.py")
        return 0 if same else 1
    extract(POT)
    subprocess.run([PYBABEL, "-q", "update", "-i", str(POT), "-d", "pbem/locale", "-D", "pbem",
                    "--no-fuzzy-matching", "--ignore-obsolete"], cwd=ROOT, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

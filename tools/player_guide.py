"""Copy docs/player-guide.md to templates/player-guide.md, the copy pbem ships and
``command: help`` reads (issue 16). Run after editing the guide:

    python tools/player_guide.py          # write the copy
    python tools/player_guide.py --check  # exit 1 when the copy differs
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "docs" / "player-guide.md"
COPY = ROOT / "templates" / "player-guide.md"


def main(argv: list[str]) -> int:
    """Write (or with ``--check`` compare) the packaged copy; the exit status."""
    text = SOURCE.read_text(encoding="utf-8")
    if "--check" in argv:
        same = COPY.exists() and COPY.read_text(encoding="utf-8") == text
        print("templates/player-guide.md is up to date" if same else
              "templates/player-guide.md differs: run python tools/player_guide.py")
        return 0 if same else 1
    COPY.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

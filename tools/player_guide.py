"""Copy the player's guide in each language to the templates pbem ships and
``command: help`` reads (issue 16; issue 28: docs/player-guide.md in English,
docs/player-guide.es.md and docs/player-guide.ru.md, the same sections and ``help:``
tags). Run after editing a guide:

    python tools/player_guide.py          # write the copies
    python tools/player_guide.py --check  # exit 1 when a copy differs
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("player-guide.md", "player-guide.es.md", "player-guide.ru.md")
"""The guide in English, Spanish and Russian (``pbem.service.commands.seat.help.guide_name``)."""
SOURCE = ROOT / "docs" / NAMES[0]
COPY = ROOT / "templates" / NAMES[0]


def main(argv: list[str]) -> int:
    """Write (or with ``--check`` compare) the packaged copies; the exit status."""
    stale = []
    for name in NAMES:
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        copy = ROOT / "templates" / name
        if "--check" in argv:
            if not copy.exists() or copy.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            copy.write_text(text, encoding="utf-8")
    if "--check" in argv:
        print(f"templates/ differs for {', '.join(stale)}: run python tools/player_guide.py" if stale else
              "templates/player-guide*.md are up to date")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Regenerate the pictures under docs/ that show what a player gets (issue 13).

    PYTHONPATH=. .venv/bin/python tools/screenshots.py

- ``docs/map-snapshot.png``: the map a seat gets by mail (1000 px wide, as mailed): a
  real position after 27 random bot steps, the overview, its legend and the zoom on
  south's forces and fronts that the seat to move gets
  (:func:`pbem.report.overview.render_seat_map_svg`).
- ``docs/report-screenshot.png`` and ``docs/archive-screenshot.png``: a turn report and
  the archive's index page in headless Chromium (1000×1400, as
  tests/report/test_screenshot.py takes them); skipped without ``chromium``.
"""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem import rules  # noqa: E402
from pbem.archive import write_archive  # noqa: E402
from pbem.pack.loader import load_pack  # noqa: E402
from pbem.report import build, snapshot  # noqa: E402
from pbem.rules.dice import Dice  # noqa: E402

DOCS = ROOT / "docs"


def map_snapshot(seat: str = "south", steps: int = 27) -> Path:
    """Write docs/map-snapshot.png: ``seat``'s mailed map after ``steps`` bot steps."""
    pack = load_pack()
    seed, rng = b"snapshot-doc", random.Random(3)
    state, events = rules.new_game(pack, seed, {})
    for _ in range(steps):
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng), Dice(seed, state.step))
    out = DOCS / "map-snapshot.png"
    players = {"north": "Kleitos", "east": "Peukestas", "south": "Nearchos", "west": "Aristonous"}
    out.write_bytes(snapshot.png(pack, state, events, f"g1 step {state.step}", seat=seat, players=players))
    return out


def browser_screenshots() -> list[Path]:
    """Write docs/report-screenshot.png and docs/archive-screenshot.png (needs chromium)."""
    from tests.report.gamestore import PLAYERS, make_store
    from tests.report.test_screenshot import CHROMIUM, screenshot

    if CHROMIUM is None:
        print("chromium is not installed: browser screenshots skipped", file=sys.stderr)
        return []
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        pack = load_pack()
        state, events = rules.new_game(pack, b"screenshot", {})
        seats = [{"seat": s, "player": p} for s, p in PLAYERS.items()]
        rep = build.render_report(pack, state, events, game_id="g1", step=0, seat="north", seats=seats,
                                  headline="setup, the game begins", seed_commitment="0" * 64)
        (d / "report.html").write_text(rep.html, encoding="utf-8")
        screenshot(d / "report.html", DOCS / "report-screenshot.png")
        site = write_archive(make_store(d, steps=4), "g1", d / "site").out_dir
        screenshot(site / "index.html", DOCS / "archive-screenshot.png")
    return [DOCS / "report-screenshot.png", DOCS / "archive-screenshot.png"]


if __name__ == "__main__":
    for path in (map_snapshot(), *browser_screenshots()):
        print(path.relative_to(ROOT))

"""The HTML report and the archive index in a real browser (headless Chromium).

Skipped when ``chromium`` is not installed (Debian: ``apt-get install -y chromium``).
Checks the screenshot PNG's size (IHDR width/height) and that it is not blank: its
byte size is several times that of a screenshot of an empty page with the same
background (a PNG of one colour compresses to almost nothing).
"""
from __future__ import annotations

import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import pytest

from pbem import rules
from pbem.archive import write_archive
from pbem.pack.loader import load_pack
from pbem.report import build
from tests.report.gamestore import PLAYERS, make_store

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)")
WIDTH, HEIGHT = 1000, 1400


def screenshot(page: Path, out: Path) -> bytes:
    """Screenshot ``page`` (a local file) with headless Chromium into ``out``; return the PNG."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={profile}", f"--screenshot={out}", f"--window-size={WIDTH},{HEIGHT}",
                        page.resolve().as_uri()], check=True, capture_output=True, timeout=120)
    return out.read_bytes()


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk; raises AssertionError if not a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def blank_size(tmp_path_factory: pytest.TempPathFactory) -> int:
    d = tmp_path_factory.mktemp("blank")
    (d / "blank.html").write_text('<html><body style="background:#fbf8f1"></body></html>')
    return len(screenshot(d / "blank.html", d / "blank.png"))


def _check(png: bytes, blank: int) -> None:
    assert png_size(png) == (WIDTH, HEIGHT)
    assert len(png) > 5 * blank and len(png) > 30_000, (len(png), blank)


def test_report_renders_in_a_browser(tmp_path: Path, blank_size: int) -> None:
    pack = load_pack()
    state, events = rules.new_game(pack, b"screenshot", {})
    seats = [{"seat": s, "player": p} for s, p in PLAYERS.items()]
    rep = build.render_report(pack, state, events, game_id="g1", step=0, seat="north", seats=seats,
                              headline="setup, the game begins", seed_commitment="0" * 64)
    (tmp_path / "report.html").write_text(rep.html, encoding="utf-8")
    _check(screenshot(tmp_path / "report.html", tmp_path / "report.png"), blank_size)


def test_archive_renders_in_a_browser(tmp_path: Path, blank_size: int) -> None:
    store = make_store(tmp_path, steps=4)
    site = write_archive(store, "g1", tmp_path / "site").out_dir
    _check(screenshot(site / "index.html", tmp_path / "index.png"), blank_size)
    _check(screenshot(site / "report-0003.html", tmp_path / "report.png"), blank_size)

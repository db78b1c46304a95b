"""The first decision after ``pbem run`` starts (issue 30, item 8): it took ~3.5 s where
later ones take ~0.4 s, all of it in per-process caches filled by the first mail (cProfile:
the map's static layers rasterised by cairosvg at the overview's and the zoom's widths,
the label layout, the Jinja templates compiled, the pack loaded). The judge now fills
them at start, in a thread of its own, so no mail waits for them
(``benchmarks/first_decision.py`` measures it)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.config import parse_config
from pbem.report import raster, render
from pbem.report.overview import zoom_width
from pbem.service import Judge
from pbem.service.play import warmup
from pbem.store import Store
from tests.conftest import HASHES, PLAYERS, SEATS


def _judge(tmp_path: Path, map_attachment: bool = True) -> Judge:
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "pbem.sqlite"),
        "map_attachment": map_attachment,
        "games": [{"id": "g1", "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                                          "key_hash": HASHES[s]} for s in SEATS]}]}, base=tmp_path)
    judge = Judge(config, Store(config.database))
    judge.ensure_games()
    return judge


@pytest.fixture
def cold() -> None:
    """The per-process caches empty, as in a judge just started."""
    raster._rasters.clear()
    render.environment().cache.clear()


def test_start_fills_the_picture_and_template_caches_off_the_mail_path(tmp_path: Path, cold: None) -> None:
    judge = _judge(tmp_path)
    pack = judge.pack_for("g1")
    thread = warmup.warm_up(judge)
    assert thread is not None and thread.name == "pbem-warm-up" and thread.daemon
    thread.join(300)
    assert not thread.is_alive()
    widths = {width for (pid, _name, width) in raster._rasters if pid == id(pack)}
    assert widths == {1000, zoom_width(1000)}, "the overview's and the zoom's static layers are drawn"
    compiled = {t.name for t in render.environment().cache.values()}
    assert {"report.txt.j2", "report.html.j2", "prompt.txt.j2", "receipt.txt.j2"} <= compiled


def test_without_map_pictures_only_the_templates_are_warmed(tmp_path: Path, cold: None) -> None:
    judge = _judge(tmp_path, map_attachment=False)
    thread = warmup.warm_up(judge)
    thread.join(300)
    assert not raster._rasters
    assert "report.txt.j2" in {t.name for t in render.environment().cache.values()}

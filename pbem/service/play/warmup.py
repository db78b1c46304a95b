"""Filling the judge's per-process caches when ``pbem run`` starts, off the mail path
(issue 30, item 8).

The first decision after a start took ~3.5 s where later ones take ~0.4 s. cProfile of
that first decision (``benchmarks/first_decision.py``): ~70 % drawing the map's static
layers with cairosvg at the overview's and the zoom's widths
(:func:`pbem.report.raster._static_raster`, cached per pack and width), the rest the
label layout of the pack (cached per pack), compiling the Jinja templates (cached by the
environment) and loading the pack (cached per process). All of it is the same for every
later decision, so :func:`warm_up` does it once at start, in a daemon thread, while the
loop already connects and reads mail; nothing it does is stored or sent.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence

from pbem import rules
from pbem.pack.model import Pack
from pbem.report import build, render
from pbem.service.base.context import Service
from pbem.service.log.trust import ENDED
from pbem.service.outgoing import seat_preferences

log = logging.getLogger(__name__)


def warm_up(judge: Service) -> threading.Thread:
    """Start a daemon thread (``pbem-warm-up``) that compiles every template and, when
    ``map_attachment`` is on, draws one game's map pictures per data pack (every seat,
    the seats the game waits for zoomed, as their next report will be) and throws them
    away. The games' states are read here, in the caller's thread (the store's
    connection is not shared). Returns the started thread. Never raises: a failure is
    logged (a cold cache costs time, nothing else)."""
    jobs: list[tuple[str, Pack, rules.GameState, dict[str, str]]] = []
    if judge.config.map_attachment:
        try:
            jobs = _pictures_to_draw(judge)
        except Exception:  # a busy database at start: the first report draws them
            log.exception("cannot read the games to warm the map caches")
    thread = threading.Thread(target=_warm, args=(jobs,), name="pbem-warm-up", daemon=True)
    thread.start()
    return thread


def _pictures_to_draw(judge: Service) -> list[tuple[str, Pack, rules.GameState, dict[str, str]]]:
    """One running game per data pack: (game id, pack, live state, each seat's
    language)."""
    jobs: list[tuple[str, Pack, rules.GameState, dict[str, str]]] = []
    packs: set[int] = set()
    for row in judge.store.games():
        if row["status"] in ENDED:
            continue
        pack = judge.pack_for(row["id"])
        if id(pack) in packs:
            continue
        try:
            state = judge.state(row["id"])
        except KeyError:  # no snapshot yet
            continue
        packs.add(id(pack))
        # each seat's language: the map's labels are drawn in it (issue 28)
        languages = {s: seat_preferences.of(judge.store, row["id"], s)["language"] for s in rules.SEATS}
        jobs.append((row["id"], pack, state, languages))
    return jobs


def _warm(jobs: Sequence[tuple[str, Pack, rules.GameState, dict[str, str]]]) -> None:
    started = time.perf_counter()
    try:
        env = render.environment()
        for name in env.list_templates(extensions=["j2"]):
            env.get_template(name)
        for game_id, pack, state, languages in jobs:
            build.seat_map_pngs(pack, state, (), title=f"{game_id} step {state.step}", seats=list(rules.SEATS),
                                zoom={d.seat for d in rules.pending(state)}, languages=languages)
    except Exception:  # a cold cache is slower, not wrong
        log.exception("warming the caches failed; the first report draws them instead")
        return
    log.info("caches warmed in %.1fs (%d game picture(s))", time.perf_counter() - started, len(jobs))

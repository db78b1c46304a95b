"""The first decision after the judge starts (issue 30, item 8: ~3.5 s where later ones
took ~0.4 s behind real servers). Each run is a fresh process, as a `pbem run` just
started: a game with the map picture on is created in one process; then, in a new
process each, ``cold`` handles the first order mail with empty caches (as before the
warm-up), ``warm`` first lets :func:`pbem.service.play.warmup.warm_up` finish (as a
judge does in the seconds after its start) and then handles it; both then handle three
more. ``--profile`` prints where the cold first decision spends its time (cProfile,
cumulative).

    python benchmarks/first_decision.py [--profile]

Measured, never asserted.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem import rules
from pbem.config import parse_config
from pbem.service import Judge
from pbem.service.play.warmup import warm_up
from pbem.store import Store
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, player_mail


def _judge(root: Path) -> Judge:
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(root / "pbem.sqlite"),
        "games": [{"id": "g1", "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                                          "key_hash": HASHES[s]} for s in SEATS]}]}, base=root)
    return Judge(config, Store(config.database))


def _decide(judge: Judge, rng: random.Random) -> float:
    """Seconds :meth:`Judge.handle_message` takes for the pending seat's orders."""
    state = judge.state("g1")
    seat = rules.pending(state)[0].seat
    raw = player_mail(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "step": state.step,
                             "orders": rules.bot_orders(state, seat, rng)})
    started = time.perf_counter()
    status = judge.handle_message(raw)
    assert status == "applied", status
    return time.perf_counter() - started


def child(root: Path, mode: str, seed: int, profile: bool) -> dict:
    """One fresh process's figures (seconds)."""
    judge = _judge(root)
    out: dict = {"mode": mode}
    if mode == "create":
        started = time.perf_counter()
        judge.ensure_games()
        out["create"] = time.perf_counter() - started
        return out
    if mode == "warm":
        started = time.perf_counter()
        warm_up(judge).join()
        out["warm-up (its own thread)"] = time.perf_counter() - started
    rng = random.Random(seed)
    prof = cProfile.Profile() if profile else None
    if prof:
        prof.enable()
    out["first decision"] = _decide(judge, rng)
    if prof:
        prof.disable()
        text = io.StringIO()
        pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(25)
        out["profile"] = text.getvalue()
    out["next three"] = [round(_decide(judge, rng), 3) for _ in range(3)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--child", nargs=3, metavar=("ROOT", "MODE", "SEED"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        root, mode, seed = args.child
        print(yaml.safe_dump(child(Path(root), mode, int(seed), args.profile and mode == "cold")))
        return
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for mode, seed in (("create", 0), ("cold", 1), ("warm", 1)):
            root = Path(tmp) / ("cold" if mode == "cold" else "warm")
            if mode == "create":
                for name in ("cold", "warm"):
                    (Path(tmp) / name).mkdir()
                    rows.append(_run(Path(tmp) / name, mode, seed, False))
                continue
            rows.append(_run(root, mode, seed, args.profile))
        for row in rows:
            profile = row.pop("profile", None)
            print(", ".join(f"{k}: {v:.2f} s" if isinstance(v, float) else f"{k}: {v}" for k, v in row.items()))
            if profile:
                print(profile)


def _run(root: Path, mode: str, seed: int, profile: bool) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", str(root), mode, str(seed),
                           *(["--profile"] if profile else [])], capture_output=True, text=True, check=True)
    return yaml.safe_load(done.stdout)


if __name__ == "__main__":
    main()

"""Record or check the behaviour of the rules core on a fixed set of seeded games.

Used around a restructure of ``pbem/rules/`` (issue 11): before the change, ``--record``
plays the games and writes one line per game (a SHA-256 of its whole event log, of every
decision offered, of every per-seat view and of the problems found in a fixed set of
mutated orders) to ``tools/rules_baseline.json``; after it, ``--check`` plays the same
games and names the first game and decision that differ. ``--dump DIR`` also writes the
full logs (gzipped JSON lines) so two runs can be diffed event by event.

The games: 200 real-pack random games (the seeds of tests/rules/test_playouts.py),
40 war playouts (the seeds and options of tests/rules/test_war_playouts.py, extended
from 12 to 40) and 40 mini-pack games (tests/rules/rules_minipack.py).

Only the public API of ``pbem.rules`` is used, so the same script runs before and after.
``--rename old=new`` (repeatable) maps renamed event kinds back before hashing;
``--drop-view-key private.withheld`` (repeatable) leaves a key added on purpose out of
the views before hashing (each use is listed in the issue note).
"""
from __future__ import annotations

import argparse
import copy
import gzip
import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "rules"))

import pbem.rules as R  # noqa: E402

BASELINE = ROOT / "tools" / "rules_baseline.json"


def canon(value: Any) -> str:
    """Canonical JSON (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)


def _leaves(x: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _leaves(v, path + (i,))
    else:
        yield path, x


def _set(x: Any, path: tuple, value: Any) -> None:
    for p in path[:-1]:
        x = x[p]
    x[path[-1]] = value


def mutations(orders: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """A few deterministic mistakes a player makes, applied to legal orders."""
    out = []
    leaves = [p for p, _v in _leaves(orders) if p]
    for junk in ("Atlantis", 999, None):
        if not leaves:
            break
        m = copy.deepcopy(orders)
        _set(m, rng.choice(leaves), junk)
        out.append(m)
    if orders:
        m = copy.deepcopy(orders)
        del m[rng.choice(sorted(orders))]
        out.append(m)
    m = copy.deepcopy(orders)
    m["marching"] = "south"
    out.append(m)
    return out


def _events(evs: list[Any], rename: dict[str, str]) -> list[dict[str, Any]]:
    out = []
    for e in evs:
        d = e.to_dict()
        d["kind"] = rename.get(d["kind"], d["kind"])
        out.append(d)
    return out


def _drop(view: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    for key in keys:
        *head, last = key.split(".")
        at: Any = view
        for h in head:
            at = at.get(h) if isinstance(at, dict) else None
        if isinstance(at, dict):
            at.pop(last, None)
    return view


def play(pack: Any, seed: bytes, options: dict[str, Any] | None, rng_seed: int,
         rename: dict[str, str], with_views: bool = True,
         drop_keys: list[str] | None = None,
         drop_options: list[str] | None = None) -> dict[str, Any]:
    """Play one bot game; return its hashes and full record."""
    state, events = R.new_game(pack, seed, options)
    rng = random.Random(rng_seed)
    mut_rng = random.Random(f"mut-{rng_seed}-{seed!r}")
    record: list[dict[str, Any]] = [{"events": _events(events, rename)}]
    for _ in range(3000):
        pend = R.pending(state)
        if not pend:
            break
        d = pend[0]
        orders = R.bot_orders(state, d.seat, rng)
        problems = [[{k: v for k, v in p.to_dict().items() if k != "line" or v is not None}
                     for p in R.validate(state, d.seat, m)]  # no line: as recorded
                    for m in mutations(orders, mut_rng)]
        views = ({str(s): _drop(R.view(state, s), drop_keys or []) for s in (*R.SEATS, None)}
                 if with_views else {})
        new, evs = R.apply(state, d.seat, orders, R.Dice(seed, state.step))
        decision = d.to_dict()
        for k in drop_options or []:
            decision["options"].pop(k, None)
        record.append({"decision": decision, "orders": orders, "problems": problems,
                       "views": views, "events": _events(evs, rename)})
        state = new
    else:
        raise AssertionError(f"game {seed!r} does not end")
    parts = {k: hashlib.sha256("\n".join(canon(r.get(k)) for r in record).encode()
                               ).hexdigest()[:16]
             for k in ("events", "decision", "problems", "views")}
    return {"hashes": parts, "decisions": len(record) - 1, "record": record}


def games() -> Iterator[tuple[str, Callable[[], Any], bytes, dict[str, Any] | None, int]]:
    """``(name, pack factory, seed, options, bot rng seed)`` of every baseline game."""
    from rules_minipack import mini_pack

    from pbem.pack.loader import load_pack

    for g in range(200):
        yield f"real-{g}", load_pack, f"playout-{g}".encode(), None, g
    for g in range(40):
        yield (f"war-{g}", load_pack, f"war-playout-{g}".encode(),
               {"ask_windows": bool(g % 2), "bot_inside": g % 3 != 2}, g)
    for g in range(40):
        yield f"mini-{g}", mini_pack, f"playout-{g}".encode(), None, g


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", action="store_true")
    mode.add_argument("--check", action="store_true")
    ap.add_argument("--dump", type=Path, help="write full logs (gz JSON lines) here")
    ap.add_argument("--only", help="only games whose name starts with this")
    ap.add_argument("--rename", action="append", default=[], metavar="OLD=NEW",
                    help="an event kind renamed by the change (mapped back to OLD)")
    ap.add_argument("--no-views", action="store_true", help="skip the per-seat views")
    ap.add_argument("--drop-view-key", action="append", default=[], metavar="A.B",
                    help="a view key added on purpose, left out before hashing")
    ap.add_argument("--drop-option-key", action="append", default=[], metavar="KEY",
                    help="a legal-options key added on purpose, left out of decisions "
                         "and views before hashing")
    args = ap.parse_args()
    rename = {new: old for old, new in (r.split("=", 1) for r in args.rename)}
    base = json.loads(BASELINE.read_text()) if args.check else {}
    out: dict[str, Any] = {}
    bad = 0
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
    for name, factory, seed, options, g in games():
        if args.only and not name.startswith(args.only):
            continue
        res = play(factory(), seed, options, g, rename, with_views=not args.no_views,
                   drop_keys=args.drop_view_key + [f"private.options.{k}"
                                                   for k in args.drop_option_key],
                   drop_options=args.drop_option_key)
        out[name] = {"decisions": res["decisions"], **res["hashes"]}
        if args.dump:
            with gzip.open(args.dump / f"{name}.jsonl.gz", "wt") as fh:
                for r in res["record"]:
                    fh.write(canon(r) + "\n")
        if args.check:
            want = base.get(name)
            diff = [k for k, v in out[name].items()
                    if want is None or (want.get(k) != v
                                        and not (args.no_views and k == "views"))]
            if diff:
                bad += 1
                print(f"{name}: differs in {', '.join(diff)} "
                      f"(decisions {want and want['decisions']} -> {res['decisions']})")
    if args.record:
        BASELINE.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(out)} games to {BASELINE.relative_to(ROOT)}")
        return 0
    print(f"checked {len(out)} games: {len(out) - bad} identical, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

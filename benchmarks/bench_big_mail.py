"""How long the judge spends on one very large mail, measured, not asserted.

    .venv/bin/python benchmarks/bench_big_mail.py [--mb 30]

Builds a game (no map pictures) and hands one mail of ``--mb`` megabytes of text from a
seat's address to ``Judge.handle_message``, timing that one call. Before issue 17 the
whole message was parsed (about 2.4 s of CPU per MB); now a mail above
``max_message_bytes`` (10 MB) is refused from its size and only its head is read — and
over IMAP it is not even downloaded (``RFC822.SIZE`` first).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.config import parse_config  # noqa: E402
from pbem.keys import hash_key  # noqa: E402
from pbem.service import Judge  # noqa: E402
from pbem.store import Store  # noqa: E402

SEATS = ("north", "east", "south", "west")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=30.0)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp / "b.sqlite"), "map_attachment": False,
        "games": [{"id": "b1", "seats": [{"seat": s, "player": s.title(), "email": f"{s}@pbem.localhost",
                                          "key_hash": hash_key(f"{s}-k", iterations=1000)} for s in SEATS]}]},
        base=tmp)
    judge = Judge(config, Store(config.database))
    judge.ensure_games()
    line = b"a line of a very long mail, as a careless client might send it\r\n"
    body = line * int(args.mb * 1_000_000 / len(line))
    raw = (b"From: north@pbem.localhost\r\nTo: judge@pbem.localhost\r\nSubject: big\r\n"
           b"Message-ID: <big@players.test>\r\n\r\n" + body)
    start = time.process_time()
    status = judge.handle_message(raw)
    print(f"{len(raw) / 1e6:.1f} MB -> {status}: {time.process_time() - start:.2f} s CPU")


if __name__ == "__main__":
    main()

"""Issue 25, third break-it pass, finding 2: a rollback restored the deck's order, so the
cards drawn in the abandoned branch were drawn again, possibly by other seats (the
tester: seed ``rbdeck-1``, 6 decisions, 12 more in which south draws #37, a rollback to
step 6, and west draws #37: south knows a card in west's hand). After a rollback the
unseen deck is now shuffled again with logged dice that ``pbem verify`` recomputes.
Through the real mail path: orders and the host's ``command: rollback`` by SMTP into
the embedded server, the IMAP poll, the replies out; ``pbem verify`` by the CLI."""
from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

from click.testing import CliRunner, Result

from pbem import rules
from pbem.cli import main
from pbem.rules.core.state import deck
from pbem.service.play import setup as table_mod
from pbem.store import Store
from pbem.store.base import canonical_json
from pbem.store.events import row_hash
from tests.conftest import SEATS
from tests.service.cmdmail import Mail, start, text

DRAWS = ("CardDrawn", "CardsDealt")


def _table(tmp_path: Path) -> tuple[Mail, dict[str, str], str]:
    """The servers, a judge and game g2 made with the tester's seed; seat keys, host key."""
    m = start(tmp_path)
    m.judge.new_seed = lambda: b"rbdeck-1"
    made = table_mod.new_game(m.judge, "g2", [table_mod.NewSeat(s, s.title(), f"{s}@pbem.localhost")
                                              for s in SEATS],
                              host_email="host@pbem.localhost", settings={})
    m.cycle()
    return m, dict(made.keys), made.host_key


def _play(m: Mail, keys: dict[str, str], rng: random.Random) -> None:
    """The waited-on seat's bot orders by mail, applied."""
    state = m.judge.state("g2")
    seat = rules.pending(state)[0].seat
    m.send(seat, {"game": "g2", "seat": seat, "key": keys[seat], "step": state.step,
                  "orders": rules.bot_orders(state, seat, rng)}, subject="orders")
    assert list(m.cycle().values()) == ["applied"]


def _drawn(m: Mail, after: int) -> list[tuple[str, int]]:
    """(seat, card) of every card dealt or drawn after event ``after``, in order."""
    return [(e.seat or e.data["seat"], c) for e in m.judge.store.events("g2", after_seq=after)
            if e.kind in DRAWS for c in e.data["cards"]]


def _rollback(m: Mail, host: str, to_step: int, subject: str) -> None:
    m.send("host", f"game: g2\nhost: {host}\ncommand: rollback\nto_step: {to_step}\nreason: {subject}\n",
           subject=subject)
    assert list(m.cycle().values()) == ["host"]


def _verify(path: Path) -> Result:
    return CliRunner().invoke(main, ["verify", "-c", str(path), "g2"])


def test_after_a_rollback_the_abandoned_branch_s_cards_do_not_come_round_again(tmp_path: Path) -> None:
    m, keys, host = _table(tmp_path)
    try:
        rng = random.Random(4)
        for _ in range(6):
            _play(m, keys, rng)
        at = m.judge.state("g2")
        branch = m.judge.store.last_event("g2")[0]
        for _ in range(12):
            _play(m, keys, rng)
        abandoned = _drawn(m, branch)
        assert ("south", 37) in abandoned, abandoned  # the tester's draw
        cards = [c for _, c in abandoned]
        assert deck(at.peek())[:len(cards)] == cards  # drawn from the top of the deck step 6 had

        _rollback(m, host, at.step, "rollback")
        now = m.judge.state("g2")
        # nothing a seat saw moved: the hands, the discards, the board; only the unseen deck
        assert {s: now.private[s]["hand"] for s in SEATS} == {s: at.private[s]["hand"] for s in SEATS}
        assert now.discards == at.discards
        assert sorted(deck(now.peek())) == sorted(deck(at.peek()))
        assert deck(now.peek())[:len(cards)] != cards
        assert deck(now.peek()) != deck(at.peek())
        said = " ".join(text(m.mails("host", "Re: rollback")[0]).split())
        assert "Tyche deck is shuffled again" in said, said
        report = " ".join(text(m.mails("west", "rolled back to the position of step")[0]).split())
        assert "unseen Tyche deck was shuffled again" in report, report

        # the new branch: the first card drawn is not the one the abandoned branch drew first
        redo = m.judge.store.last_event("g2")[0]
        for _ in range(12):
            _play(m, keys, rng)
            if _drawn(m, redo):
                break
        again = _drawn(m, redo)
        assert again and again[0][1] != cards[0], (again, cards)

        # a second rollback to the same step shuffles otherwise
        first_order = deck(now.peek())
        _rollback(m, host, at.step, "rollback again")
        second = m.judge.state("g2")
        assert sorted(deck(second.peek())) == sorted(first_order)
        assert deck(second.peek()) not in (first_order, deck(at.peek()))
    finally:
        path = m.path
        m.close()
    v = _verify(path)
    assert v.exit_code == 0 and "replay equals live state" in v.output and "re-adjudication" in v.output, v.output


def _copy(source: Path, target: Path) -> None:
    """A whole SQLite database copied onto another (its write-ahead log included)."""
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


def _rewrite(db: Path, changes: dict[int, dict], deck_now: list[int]) -> None:
    """Write ``changes`` ({seq: data}) into the log and recompute every hash from the
    first on, as a judge that cheats at the time would; the newest snapshot's deck set to
    ``deck_now`` (so the replay agrees with the live state)."""
    store = Store(db)
    try:
        rows = store.chain_rows("g2")
        start_at = next(i for i, r in enumerate(rows) if r["seq"] in changes)
        version, key = store._chain("g2")
        with store.transaction():
            prev = rows[start_at - 1]["hash"]
            for r in rows[start_at:]:
                r["data"] = changes.get(r["seq"], r["data"])
                r["prev_hash"] = prev
                r["hash"] = prev = row_hash(prev, r, r["data"], version, key)
                store.db.execute("UPDATE events SET data = ?, prev_hash = ?, hash = ? WHERE game_id = 'g2' AND seq = ?",
                                 [canonical_json(r["data"]), r["prev_hash"], r["hash"], r["seq"]])
            seq, state = store.snapshot("g2")
            state["secret"]["deck"] = list(deck_now)
            store.db.execute("UPDATE snapshots SET state = ? WHERE game_id = 'g2' AND seq = ?",
                             [canonical_json(state), seq])
        assert store.verify_chain("g2") == []
    finally:
        store.close()


def test_a_post_rollback_shuffle_picked_by_hand_fails_pbem_verify(tmp_path: Path) -> None:
    m, keys, host = _table(tmp_path)
    try:
        rng = random.Random(4)
        for _ in range(3):
            _play(m, keys, rng)
        at = m.judge.state("g2")
        for _ in range(2):
            _play(m, keys, rng)
        _rollback(m, host, at.step, "rollback")
        events = m.judge.store.events("g2")
        shuffled = next(e for e in events if e.kind == "Shuffled" and "rollback" in e.data["purpose"])
        dealt = next(e for e in events if e.kind == "DeckShuffled" and e.seq > shuffled.seq)
        assert shuffled.data["items"] == deck(at.peek()) and dealt.data["deck"] == shuffled.data["order"]
    finally:
        path, db = m.path, m.judge.store.path
        m.close()
    assert _verify(path).exit_code == 0
    honest = tmp_path / "honest.sqlite"
    _copy(db, honest)
    picked = list(deck(at.peek()))  # the order the abandoned branch drew from: south's #37 comes round again

    # the judge picks the order and logs it as the shuffle's outcome
    _rewrite(db, {shuffled.seq: {**shuffled.data, "order": picked}, dealt.seq: {**dealt.data, "deck": picked}},
             picked)
    v = _verify(path)
    assert v.exit_code == 1 and "the seed and the logged orders give another order" in v.output, v.output

    # an honest shuffle logged, but another deck put in play
    _copy(honest, db)
    _rewrite(db, {dealt.seq: {**dealt.data, "deck": picked}}, picked)
    v = _verify(path)
    assert v.exit_code == 1 and "the reshuffle of the unseen deck after the rollback" in v.output, v.output

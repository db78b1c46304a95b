"""Issue 24, what the fourth hand-played game (session 6, trial24) found, through the
real mail path (pymap on loopback, the seats mailing over SMTP, the tests reading the
seats' mailboxes).

- Reinforcement orders that place only some of the new CUs: the engine places the rest
  at the default space (R-7.2 [D]). The report told that as a second line like the
  first ("north places 1 loyal in Pella." then "north places 2 mercenary in Pella.";
  "south places 2 mercenary in Memphis." twice in a row), which reads as the listed
  placement told twice (item 14's "duplicated line"). The line of the CUs the orders
  left out now says they went to the default space.
- A misspelled CU type in reinforcement orders (``mercenery: 2``) was refused as "you
  have 0 mercenery CUs to place, not 2" with no "did you mean" (item 14's misspelled
  names): the fix now names the type it is close to.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import yaml

from pbem import rules
from tests.conftest import ACCOUNTS
from tests.mailservers import start_pymap
from tests.service.tablemail import new_table, text

MAX_DECISIONS = 80
"""Enough to close game turn 1 (about 22 decisions) and reach a seat's reinforcements."""


def _happened(report: str) -> list[str]:
    """The numbered lines of a report's WHAT HAPPENED, each joined onto one line."""
    part = report.split("WHAT HAPPENED", 1)[1].split("\n\n", 1)[0]
    lines: list[str] = []
    for line in part.splitlines():
        if re.match(r"\s*\d+\. ", line):
            lines.append(line.split(". ", 1)[1].strip())
        elif lines:
            lines[-1] += " " + line.strip()
    return lines


def _to_reinforcements(tmp_path: Path):  # noqa: ANN202
    """A game made by `pbem game new` played by mail (bot orders) until a seat's
    reinforcement decision with at least two new CUs: (server, table, state, decision,
    options)."""
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table, _host_key = new_table(tmp_path, server)
    rng = random.Random(11)
    for _ in range(MAX_DECISIONS):
        state = table.judge.state("g2")
        decision = rules.pending(state)[0]
        if decision.kind == "reinforcements":
            opts = rules.legal_options(state, decision.seat)
            if sum(opts["new"].values()) >= 2:
                return server, table, state, decision, opts
        assert table.play("g2", rng) == "applied"
    raise AssertionError("no reinforcement decision with two new CUs")


def _send(table, state, seat: str, part: list) -> str:  # noqa: ANN001
    doc = {"game": "g2", "seat": seat, "key": table.keys[seat], "step": state.step,
           "orders": {"reinforcements": part}}
    table.send(f"{seat}@pbem.localhost", yaml.safe_dump(doc, sort_keys=False), "reinforcements")
    [status] = table.cycle()
    table.flush()
    return status


def test_reinforcements_left_out_of_the_orders_are_told_as_placed_by_default(tmp_path: Path) -> None:
    server, table, state, decision, opts = _to_reinforcements(tmp_path)
    try:
        seat, pack = decision.seat, state.pack
        kind = sorted(opts["new"])[0]
        space = opts["placement_spaces"][0]
        assert _send(table, state, seat, [{"space": pack.spaces[space].name, "cus": {kind: 1}}]) == "applied"
        report = text(table.mails(seat, f"[g2] step {state.step} report")[-1])
        lines = _happened(report)
        placed = [x for x in lines if x.startswith(f"{seat} places ")]
        assert len(placed) >= 2, lines
        assert placed[0] == f"{seat} places 1 {kind} in {pack.spaces[space].name}.", placed
        assert all(x.endswith(", the default space, for the new CUs its reinforcement orders did not "
                              "place (R-7.2).") for x in placed[1:]), placed
        assert all(a != b for a, b in zip(lines, lines[1:])), lines
    finally:
        table.close()
        server.stop()


def test_a_misspelled_cu_type_in_reinforcements_gets_did_you_mean(tmp_path: Path) -> None:
    server, table, state, decision, opts = _to_reinforcements(tmp_path)
    try:
        seat, pack = decision.seat, state.pack
        kind = "mercenary" if opts["new"].get("mercenary") else sorted(opts["new"])[0]
        typo = kind[:-2] + kind[-1] + kind[-2]  # two letters swapped: mercenayr
        space = pack.spaces[opts["placement_spaces"][0]].name
        assert _send(table, state, seat, [{"space": space, "cus": {typo: 1}}]) == "rejected"
        answer = " ".join(text(table.mails(seat, "Re: reinforcements")[-1]).split())
        assert "code: reinforcements.too_many" in answer, answer
        assert f"fix: did you mean {kind}?" in answer, answer
    finally:
        table.close()
        server.stop()


def test_a_seat_passed_over_in_a_round_is_told_why(tmp_path: Path, pymap_server) -> None:  # noqa: ANN001
    """R-6.5: a seat holding no card that can be the Tyche play (only surprise cards) is
    skipped. The reports said only "south's player-turn begins" after "east ends the
    player-turn" (or "Round 5 begins. east's player-turn begins." with south, west and
    north skipped), so the skipped players never learnt why their turn did not come.
    Now the report names them and why. A config game with a fixed seed, played by mail
    with the bots' orders until a round passes a seat over."""
    from pbem.service import run_once
    from tests.conftest import seeded_table

    table = seeded_table(tmp_path, pymap_server, b"trial24-passed-over")
    config, judge, poller = table.config, table.judge, table.poller
    rng = random.Random(24)
    try:
        for _ in range(MAX_DECISIONS):
            state = judge.state("g1")
            decision = rules.pending(state)[0]
            doc = table.orders_doc(decision.seat, state.step, rules.bot_orders(state, decision.seat, rng))
            table.send(decision.seat, doc, subject=f"step {state.step}")
            assert list(run_once(judge, poller).values()) == ["applied"]
            after = judge.state("g1")
            events = judge.store.db.execute("SELECT kind, data FROM events WHERE game_id = 'g1' AND step = ? "
                                            "ORDER BY seq", (state.step,)).fetchall()
            kinds = [k for k, _d in events]
            if "PlayerTurnStarted" not in kinds or "TurnPassed" not in kinds:
                continue
            order = list(after.turn_order)
            ended = yaml.safe_load([d for k, d in events if k == "TurnPassed"][-1])["seat"]
            started = yaml.safe_load([d for k, d in events if k == "PlayerTurnStarted"][-1])["seat"]
            gap = (order.index(started) - order.index(ended)) % len(order) or len(order)
            if gap == 1:
                continue  # the next seat in turn order: nobody passed over
            skipped = [order[(order.index(ended) + k) % len(order)] for k in range(1, gap)]
            judge.flush_outbox()
            for seat in rules.SEATS:
                mail = next(m for m in reversed(table.inbox(seat))
                            if f"step {state.step} report" in str(m["Subject"]))
                lines = _happened(table.text_of(mail))
                told = [x for x in lines if x.startswith("Passed over (R-6.5): ")]
                assert told == [f"Passed over (R-6.5): {', '.join(skipped)}, with no card in hand that can be "
                                "the Tyche play (surprise cards only, or none)."], (seat, lines)
                assert lines.index(told[0]) + 1 == lines.index(f"{started}'s player-turn begins."), lines
            return
        raise AssertionError("no seat was passed over")
    finally:
        poller.close()

"""``command: help`` (issue 16) through the real mail path: the guide's part for the
seat's situation and the seat's own hand, to that seat only; and the guide the judge
ships agrees with docs/player-guide.md."""
from __future__ import annotations

from pathlib import Path

from pbem import rules
from pbem.report import context
from pbem.service.commands.seat import help as help_cmd
from tests.conftest import KEYS, SEATS
from tests.service.cmdmail import start, text
from tests.service.helpers import orders_body

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_guide_is_docs_player_guide_and_covers_every_situation() -> None:
    assert (ROOT / "templates" / "player-guide.md").read_text() == (ROOT / "docs" / "player-guide.md").read_text(), \
        "run python tools/player_guide.py"
    parts = help_cmd.sections(help_cmd.guide_text())
    tags = set().union(*(s.tags for s in parts))
    assert tags <= {"all", "waiting", "reaction", "anyone", *help_cmd.KINDS}
    for kind in (None, "intercept", *help_cmd.KINDS):
        chosen = help_cmd.help_text(kind, parts)
        own = [s for s in parts if help_cmd.situation(kind) in s.tags]
        assert own and len(chosen) > len(own)  # its own sections and the ones for all
        assert all(max(len(line) for line in c.splitlines()) <= 72 for c in chosen)
        assert not any("<!--" in c for c in chosen)
    assert "Your player-turn" not in "".join(help_cmd.help_text(None, parts))
    assert "Your player-turn" in "".join(help_cmd.help_text("player_turn", parts))


def test_help_mails_the_situation_and_the_seats_own_hand(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        hand = lambda st, s: rules.view(st, s)["private"].get("hand", [])
        for n in range(8):  # play on until every seat holds cards (they are dealt in the first turn)
            if all(hand(m.judge.state("g1"), s) for s in SEATS):
                break
            mover, body = orders_body(m.judge, seed=n)
            m.send(mover, body, subject="orders")
            assert list(m.cycle().values()) == ["applied"]
        state = m.judge.state("g1")
        decision = rules.pending(state)[0]
        waiting = next(s for s in SEATS if s not in {d.seat for d in rules.pending(state)})
        for s in (decision.seat, waiting):
            m.send(s, {"game": "g1", "seat": s, "key": KEYS[s], "command": "help"})
        assert sorted(m.cycle().values()) == ["answered", "answered"]
        pack = m.judge.pack_for("g1")
        hands = {s: [r["label"] for r in context.hand_rows(pack, {}, hand(state, s))] for s in SEATS}
        for s in (decision.seat, waiting):
            body = text(m.mails(s, "Re: command")[0])
            assert body.startswith(f"Help for seat {s}.")
            assert max(len(line) for line in body.splitlines()) <= 72
            flat = " ".join(body.split())
            assert hands[s] and all(label in flat for label in hands[s])
            foreign = {lab for o in SEATS if o != s for lab in hands[o]} - set(hands[s])
            assert not [lab for lab in foreign if lab in flat]  # no other seat's card
            assert "COMMANDS BY MAIL" in body and "PRESS" in body
        mover = text(m.mails(decision.seat, "Re: command")[0])
        assert "waits for your decision" in mover and "WHILE YOU WAIT" not in mover
        heading = "\nHOW TO WRITE THE ORDERS\n"  # the prompt's part, a heading (the guide names it too)
        assert heading in mover and heading not in text(m.mails(waiting, "Re: command")[0])
        tag = help_cmd.situation(decision.kind)
        assert all((sec.title.upper() if sec.level == 2 else sec.title) in mover
                   for sec in help_cmd.sections(help_cmd.guide_text()) if tag in sec.tags)
        idle = text(m.mails(waiting, "Re: command")[0])
        assert "WHILE YOU WAIT" in idle and "Your player-turn" not in idle
    finally:
        m.close()

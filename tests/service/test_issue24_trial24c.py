"""Issue 24, what the hand-played confirmation game of session 7 (trial24c) found,
through the real mail path (pymap on loopback, the seats mailing over SMTP, the tests
reading the seats' mailboxes).

- A minor general's army (R-5: the army left when its general dies) was listed in the
  prompt as "minor in Amisus (4 MPs; 1 mercenary)" under "Armies that may move (army:
  general or space ...)" and in the ARMIES table as "Amisus: minor, 1 mercenary". The
  player wrote `army: minor`, the name shown, and was refused twice ("there is no
  general or space 'minor'; did you mean Myra?"). The prompt now says how orders name
  such an army ("the minor general in Amisus (army: Amisus; ...)") and the table says
  "minor general".
"""
from __future__ import annotations

import random
import re

from pbem import rules
from pbem.service import make_judge, run_once
from tests.conftest import Table, make_config

MAX_DECISIONS = 60
"""Seed trial24c-m2 with these bot orders: north's Lysimachus dies by step 19 and leaves
a minor general in Amastris; north's next player-turn comes a few decisions later."""


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_minor_generals_army_is_named_as_orders_name_it(tmp_path, pymap_server) -> None:  # noqa: ANN001
    config = make_config(tmp_path, pymap_server, map_attachment=False)
    judge, poller = make_judge(config)
    judge.new_seed = lambda: b"trial24c-m2"
    judge.ensure_games()
    run_once(judge, poller)
    table = Table(pymap_server, config, judge, poller)
    rng = random.Random(24)
    try:
        for _ in range(MAX_DECISIONS):
            state = judge.state("g1")
            decision = rules.pending(state)[0]
            seat = decision.seat
            minors = [a for a in (rules.legal_options(state, seat).get("armies") or [])
                      if decision.kind == "player_turn" and a.get("commander") == "minor"]
            if minors:
                judge.flush_outbox()
                prompt = next(m for m in reversed(table.inbox(seat))
                              if f"step {state.step}: your move" in str(m["Subject"]))
                body = _flat(table.text_of(prompt))
                space = state.pack.spaces[minors[0]["space"]].name
                choices = body.split("LEGAL CHOICES", 1)[1].split("YOUR ORDERS", 1)[0]
                assert f"the minor general in {space} (army: {space}; " in choices, choices
                assert f"minor in {space}" not in choices, choices
                armies = body.split("ARMIES (", 1)[1].split("ROYAL FAMILY", 1)[0]
                assert re.search(rf"{seat} +{space}: minor general, ", armies), armies
                assert f"{space}: minor," not in armies, armies
                # what the prompt says is what the check takes
                doc = table.orders_doc(seat, state.step, {
                    "tyche": rules.bot_orders(state, seat, rng)["tyche"],
                    "movement": [{"army": space, "path": [state.pack.spaces[minors[0]["space"]].name]}]})
                table.send(seat, doc, subject="minor general")
                run_once(judge, poller)
                judge.flush_outbox()
                answer = _flat(table.text_of(next(m for m in reversed(table.inbox(seat))
                                                  if "Re: minor general" in str(m["Subject"]))))
                assert "movement.unknown_army" not in answer, answer
                return
            doc = table.orders_doc(seat, state.step, rules.bot_orders(state, seat, rng))
            table.send(seat, doc, subject=f"step {state.step}")
            assert list(run_once(judge, poller).values()) == ["applied"]
        raise AssertionError("no player-turn of a seat with a minor general's army")
    finally:
        poller.close()

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
- After a tied battle the attacker's way back (R-9.2) was told as a move of its own,
  and a move's pick-up (R-9.1) as "north reorganises the army in Babylon.": both now
  say what happened.
"""
from __future__ import annotations

import random
import re

import yaml

from pbem import rules
from pbem.service import run_once
from tests.conftest import seeded_table

MAX_DECISIONS = 60
"""Seed trial24c-m2 with these bot orders: north's Lysimachus dies by step 19 and leaves
a minor general in Amastris; north's next player-turn comes a few decisions later."""


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_minor_generals_army_is_named_as_orders_name_it(tmp_path, pymap_server) -> None:  # noqa: ANN001
    table = seeded_table(tmp_path, pymap_server, b"trial24c-m2")
    config, judge, poller = table.config, table.judge, table.poller
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


def test_a_tie_retreat_and_a_pick_up_say_what_happened(tmp_path, pymap_server) -> None:  # noqa: ANN001
    """Two report lines of the game that said too little:

    - after a tied battle the attacker goes back where it came from (R-9.2); the report
      told it as a move like any other ("east moves Leonnatus's army (with Seleucus)
      Mazaca -> Comana."), right after "A tie", so it read as a move nobody ordered;
    - a move's ``pick_up`` (R-9.1) was told as "north reorganises the army in Babylon.",
      without what it took along (Alexander's Body).

    Seed trial24c-t1 with these bot orders: a tie at step 4; at step 16 south has a
    mercenary standing alone in Gangra, next to one of its armies."""
    table = seeded_table(tmp_path, pymap_server, b"trial24c-t1")
    config, judge, poller = table.config, table.judge, table.poller
    rng = random.Random(24)
    tie_seen = False
    try:
        for _ in range(MAX_DECISIONS):
            state = judge.state("g1")
            decision = rules.pending(state)[0]
            seat, pack = decision.seat, state.pack
            opts = rules.legal_options(state, seat) if decision.kind == "player_turn" else {}
            pick = [(pu, a) for pu in opts.get("pick_ups") or [] for a in opts.get("armies") or []
                    if pu.get("cus") and (pu["space"], "land") in pack.neighbours(a["space"])]
            if tie_seen and pick:
                pu, army = pick[0]
                where = pack.spaces[pu["space"]].name
                name = pack.generals[army["army"]].name if army["army"] in pack.generals else \
                    pack.spaces[army["space"]].name
                orders = {"tyche": rules.bot_orders(state, seat, rng)["tyche"],
                          "movement": [{"army": name, "path": [where],
                                        "pick_up": {"at": where, "cus": dict(pu["cus"])}}]}
                table.send(seat, table.orders_doc(seat, state.step, orders), subject="pick up")
                assert list(run_once(judge, poller).values()) == ["applied"]
                judge.flush_outbox()
                lines = _happened(table.text_of(next(m for m in reversed(table.inbox(seat))
                                                     if f"step {state.step} report" in str(m["Subject"]))))
                cus = ", ".join(f"{n} {k}" for k, n in pu["cus"].items())
                assert f"{seat}'s army picks up {cus} in {where}." in lines, lines
                assert not any("reorganises" in x for x in lines), lines
                return
            doc = table.orders_doc(seat, state.step, rules.bot_orders(state, seat, rng))
            table.send(seat, doc, subject=f"step {state.step}")
            assert list(run_once(judge, poller).values()) == ["applied"]
            events = [(k, yaml.safe_load(d)) for k, d in judge.store.db.execute(
                "SELECT kind, data FROM events WHERE game_id = 'g1' AND step = ? ORDER BY seq", (state.step,))]
            back = [d for k, d in events if k == "ArmyMoved" and d.get("why") == "tie: attacker returns"]
            if back and not tie_seen:
                tie_seen = True
                judge.flush_outbox()
                lines = _happened(table.text_of(next(m for m in reversed(table.inbox("north"))
                                                     if f"step {state.step} report" in str(m["Subject"]))))
                d = back[0]
                path = f"{pack.spaces[d['from']].name} -> {pack.spaces[d['to']].name}"
                told = [x for x in lines if path in x]
                assert told and told[0].endswith(": after a tied battle the attacker goes back where it "
                                                 "came from (R-9.2)."), lines
        raise AssertionError(f"tie seen: {tie_seen}; no pick-up next to an army")
    finally:
        poller.close()


def test_a_unit_in_training_shows_what_it_costs(tmp_path, pymap_server) -> None:  # noqa: ANN001
    """R-8.4: the prompt said "In training: phalangite (6 OPs paid)" and nowhere how many
    a phalangite takes (7, a pack constant); the player paid 3 more and was refused
    (``tyche.train_overpaid``). The prompt now says "phalangite (6 of its 7 OPs paid)",
    in its hand part and in its Training line."""
    table = seeded_table(tmp_path, pymap_server, b"trial24c-t1")
    config, judge, poller = table.config, table.judge, table.poller
    rng = random.Random(24)
    try:
        for _ in range(MAX_DECISIONS):
            state = judge.state("g1")
            decision = rules.pending(state)[0]
            seat, pack = decision.seat, state.pack
            training = rules.view(state, seat).get("private", {}).get("training", [])
            if decision.kind == "player_turn" and any(u.get("paid") for u in training):
                judge.flush_outbox()
                prompt = next(m for m in reversed(table.inbox(seat))
                              if f"step {state.step}: your move" in str(m["Subject"]))
                body = _flat(table.text_of(prompt))
                for u in training:
                    cost = pack.constants[f"training_{u['unit']}_ops"]
                    told = f"{u['unit']} ({u['paid']} of its {cost} OPs paid)"
                    assert body.count(told) == 2, (told, body)  # the hand part and the Training line
                assert re.search(r"\(\d+ OPs? paid\)", body) is None, body
                return
            doc = table.orders_doc(seat, state.step, rules.bot_orders(state, seat, rng))
            table.send(seat, doc, subject=f"step {state.step}")
            assert list(run_once(judge, poller).values()) == ["applied"]
        raise AssertionError("no player-turn with a unit in training")
    finally:
        poller.close()


def test_the_history_list_labels_step_0_as_its_report_does(tmp_path, pymap_server) -> None:  # noqa: ANN001
    """``history: all`` listed step 0 (the setup and the first player's naming, which
    share the step) as "turn 1, round 1", the position after it, where every other
    step is labelled with the position it was played from and the step's own report
    says "Turn 1 (323 BC), turn order phase"."""
    from tests.conftest import KEYS

    table = seeded_table(tmp_path, pymap_server, b"trial24c-h1")
    config, judge, poller = table.config, table.judge, table.poller
    rng = random.Random(24)
    try:
        for _ in range(2):  # the turn order, then the first player-turn
            state = judge.state("g1")
            seat = rules.pending(state)[0].seat
            table.send(seat, table.orders_doc(seat, state.step, rules.bot_orders(state, seat, rng)),
                       subject=f"step {state.step}")
            assert list(run_once(judge, poller).values()) == ["applied"]
        table.send("north", yaml.safe_dump({"game": "g1", "seat": "north", "key": KEYS["north"],
                                            "history": "all"}), subject="history")
        run_once(judge, poller)
        judge.flush_outbox()
        answer = table.text_of(next(m for m in reversed(table.inbox("north"))
                                    if "history: " in str(m["Subject"])))
        lines = {int(m.group(1)): m.group(2) for m in re.finditer(r"step +(\d+) +(turn \d+, [^:]+):", answer)}
        report0 = table.text_of(next(m for m in table.inbox("north") if "step 0 report" in str(m["Subject"])))
        assert "Turn 1 (323 BC), turn order phase." in _flat(report0), report0
        assert lines[0] == "turn 1, turn order phase", answer
        assert lines[1] == "turn 1, round 1", answer
    finally:
        poller.close()


def test_a_pick_up_of_a_royal_not_yours_says_how_to_mend_it(tmp_path, pymap_server) -> None:  # noqa: ANN001
    """North's Perdiccas passed Babylon on turn 1 with ``pick_up: {at: Babylon, royals:
    [Alexander's Body]}``: refused, rightly (the funeral cart does not move on turn 1,
    R-12.4), but with the fix "pick_up only what is there when the army passes
    Babylon", though the body was there. The fix now says to leave it out and why. Here
    with a royal woman nobody controls yet (R-12.1), on a 1- or 2-space path."""
    from pbem.rules.core.pieces import controlled_royals

    table = seeded_table(tmp_path, pymap_server, b"trial24c-r1")  # a fixed game: with a new seed each run
    config, judge, poller = table.config, table.judge, table.poller  # its bots' orders could meet another refusal
    rng = random.Random(24)
    try:
        for _ in range(MAX_DECISIONS):
            state = judge.state("g1")
            decision = rules.pending(state)[0]
            seat, pack = decision.seat, state.pack
            tyche = rules.bot_orders(state, seat, random.Random(state.step))["tyche"] \
                if decision.kind == "player_turn" else None
            if tyche is not None and "army" not in tyche:  # a Tyche play that moves no army first
                mine = set(controlled_royals(pack, state.to_dict(), seat))
                where = {v["space"]: r for r, v in state.royals.items()
                         if r not in mine and v.get("space") and not v.get("gone")}
                for a in rules.legal_options(state, seat).get("armies") or []:
                    land = [n for n, k in pack.neighbours(a["space"]) if k == "land"]
                    paths = [[n] for n in land] + [[n, m] for n in land for m, k in pack.neighbours(n)
                                                   if k == "land" and a["allowance"] >= 2 and m != a["space"]]
                    path = next((p for p in paths if p[-1] in where), None)
                    if path is None:
                        continue
                    royal = pack.royals[where[path[-1]]].name
                    names = [pack.spaces[x].name for x in path]
                    army = pack.generals[a["army"]].name if a["army"] in pack.generals else pack.spaces[a["space"]].name
                    orders = {"tyche": tyche,
                              "movement": [{"army": army, "path": names,
                                            "pick_up": {"at": names[-1], "royals": [royal]}}]}
                    table.send(seat, table.orders_doc(seat, state.step, orders), subject="royal")
                    assert list(run_once(judge, poller).values()) == ["rejected"]
                    judge.flush_outbox()
                    answer = _flat(table.text_of(next(m for m in reversed(table.inbox(seat))
                                                      if "Re: royal" in str(m["Subject"]))))
                    assert f"{royal} is not yours to carry" in answer, answer
                    assert ("fix: leave them out of pick_up: an army carries only the royal family "
                            "members you control") in answer, answer
                    assert "pick_up only what is there" not in answer, answer
                    return
            doc = table.orders_doc(seat, state.step, rules.bot_orders(state, seat, rng))
            table.send(seat, doc, subject=f"step {state.step}")
            assert list(run_once(judge, poller).values()) == ["applied"]
        raise AssertionError("no army next to a royal its seat does not control")
    finally:
        poller.close()

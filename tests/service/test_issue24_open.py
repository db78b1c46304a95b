"""Issue 24, what the third hand-played game left open, through the real mail path (a
judge polling pymap on loopback, the seats mailing over SMTP; the tests read the
answers in the seats' mailboxes).

- N3 (item 7): every mistake of a move in one answer: a misspelled general does not
  hide his army's path; every gap of one path and its cost together; a surprise card
  named as the Tyche play does not hide a bad path.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import yaml

from pbem import rules
from pbem.service import run_once
from pbem.rules.core.board import LAND_KINDS, distances, info
from tests.conftest import ACCOUNTS
from tests.mailservers import start_pymap
from tests.service.tablemail import flat, new_table, text
from tests.service.test_check_by_mail import _far, _send, turn  # noqa: F401  (the fixture)


def land_distance(pack, start: str, end: str) -> int | None:
    """The fewest MPs of a land path from ``start`` to ``end`` (R-9.1)."""
    costs = {k: int(v) for k, v in pack.constants["path_mp_cost"].items() if k in LAND_KINDS}
    return distances(pack, {start}, 999, costs).get(end)


def _gapped_far_path(pack, start: str, allowance: int) -> list[str]:
    """A path from ``start`` with two steps not next to the space before them, ending
    farther than ``allowance`` MPs by any land path."""
    adj = info(pack).adjacent
    x, _y = _far(pack, start)
    end = min(z for z in pack.spaces if pack.spaces[z].kind != "transit"
              and (land_distance(pack, start, z) or 0) > allowance
              and all(w != z for w, _k in adj[x]))
    return [x, end]


def test_a_misspelled_general_does_not_hide_his_path(turn) -> None:  # noqa: F811
    """N3: ``army: Leonnatuss`` with a first step not next to him: the unknown army and
    the path read as his, both in one answer (it used to stop at the name)."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    a1, s1 = next((a["army"], a["space"]) for a in rules.legal_options(state, seat)["armies"])
    discard = next(h["card"] for h in rules.legal_options(state, seat)["hand"] if "discard" in h["uses"])
    x, y = _far(pack, s1)
    wrong = pack.generals[a1].name + "s"
    status, answer = _send(table, seat, {"tyche": {"card": discard, "use": "discard"},
                                         "movement": [{"army": wrong, "path": [x, y]}]})
    assert status == "rejected"
    assert "code: movement.unknown_army" in answer and "code: movement.bad_path" in answer, answer
    assert (f"{pack.spaces[x].name} is not next to {pack.spaces[s1].name}, reading '{wrong}' as "
            f"{pack.generals[a1].name}") in answer, answer


def test_every_problem_of_one_path_in_one_answer(turn) -> None:  # noqa: F811
    """N3: a path with two gaps whose end is out of the army's reach: both gaps and the
    MPs in one answer (it used to take one answer per problem)."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    opts = rules.legal_options(state, seat)
    a1, s1, mp = next((a["army"], a["space"], a["allowance"]) for a in opts["armies"])
    discard = next(h["card"] for h in opts["hand"] if "discard" in h["uses"])
    x, end = _gapped_far_path(pack, s1, mp)
    status, answer = _send(table, seat, {"tyche": {"card": discard, "use": "discard"},
                                         "movement": [{"army": pack.generals[a1].name,
                                                       "path": [pack.spaces[x].name,
                                                                pack.spaces[end].name]}]})
    assert status == "rejected"
    assert "There are 3 problems:" in answer, answer
    assert f"{pack.spaces[x].name} is not next to {pack.spaces[s1].name}" in answer, answer
    assert f"{pack.spaces[end].name} is not next to {pack.spaces[x].name}" in answer, answer
    assert "code: movement.too_far" in answer and (
        f"{pack.spaces[end].name} is at least {land_distance(pack, s1, end)} MPs from "
        f"{pack.spaces[s1].name} by any land path, the army has {mp}") in answer, answer


def test_a_surprise_card_as_the_tyche_play_does_not_hide_a_bad_path(turn) -> None:  # noqa: F811
    """N3: a surprise card named as the Tyche play (the wrong moment) and a move whose
    first step is not next to the army: both in one answer."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    a1, s1 = next((a["army"], a["space"]) for a in rules.legal_options(state, seat)["armies"])
    surprise = next(n for n in state.private[seat]["hand"] if pack.cards[n].type == "surprise")
    x, y = _far(pack, s1)
    status, answer = _send(table, seat, {"tyche": {"card": surprise, "use": "event"},
                                         "movement": [{"army": pack.generals[a1].name, "path": [x, y]}]})
    assert status == "rejected"
    assert "code: tyche.surprise_not_mandatory" in answer, answer
    assert "code: movement.bad_path" in answer and f"{pack.spaces[x].name} is not next to" in answer, answer


def test_orders_sent_again_after_they_were_accepted_are_told_so(turn) -> None:  # noqa: F811
    """N5: the same orders mailed again once their step is over are not refused as
    stale with "correct the mail": the answer says they were accepted at that step,
    with no problem."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    unrest = next(n for n in state.private[seat]["hand"] if pack.cards[n].type == "unrest")
    orders = {"tyche": {"card": unrest, "use": "event"}, "movement": "none"}
    status, _answer = _send(table, seat, orders)
    assert status == "applied"
    now = table.judge.state("g1").step
    seen = len(table.inbox(seat))
    table.send(seat, table.orders_doc(seat, state.step, orders), subject="again")
    assert list(run_once(table.judge, table.poller).values()) == ["answered"]
    [answer] = [" ".join(table.text_of(m).split()) for m in table.inbox(seat)[seen:] if "Re: again" in str(m["Subject"])]
    assert f"These orders were already accepted at step {state.step}" in answer, answer
    assert f"The game is at step {now} now" in answer and "code:" not in answer, answer
    changed = {"tyche": {"card": unrest, "use": "event"}, "movement": "mercenary"}
    table.send(seat, table.orders_doc(seat, state.step, changed), subject="changed")
    assert list(run_once(table.judge, table.poller).values()) == ["rejected"]  # other orders: stale as before


def _mixed(pack, start: str) -> list[str] | None:
    """A path from ``start``: a land step to a port, then a sea step from it (R-9.1: no
    one kind of move), or None."""
    adj = info(pack).adjacent
    for y, k in sorted(adj[start]):
        if k in LAND_KINDS and pack.spaces[y].port:
            for z, k2 in sorted(adj[y]):
                if k2 == "sea" and z != start and not any(w == z and kk in LAND_KINDS for w, kk in adj[y]):
                    return [y, z]
    return None


def test_hints_offer_only_close_names_and_fixes_that_fit(turn) -> None:  # noqa: F811
    """N4: ``Ascalon`` is no near miss of Calydon (it is offered the spaces next to the
    army instead); an example path in a hint never goes back where the path came from;
    a path that mixes land and sea steps is told which steps are which, not "next to"
    its last space."""
    table, seat = turn
    state = table.judge.state("g1")
    pack = state.pack
    opts = rules.legal_options(state, seat)
    discard = next(h["card"] for h in opts["hand"] if "discard" in h["uses"])
    a1, s1 = opts["armies"][0]["army"], opts["armies"][0]["space"]
    adj = info(pack).adjacent
    y = min(z for z, k in adj[s1] if k in LAND_KINDS)
    x = next(z for z in sorted(pack.spaces) if z != s1 and all(w != z for w, _k in adj[y])
             and pack.spaces[z].kind != "transit")
    mixed = next((a["army"], a["space"], _mixed(pack, a["space"])) for a in opts["armies"]
                 if _mixed(pack, a["space"]))
    status, answer = _send(table, seat, {
        "tyche": {"card": discard, "use": "discard"},
        "movement": [{"army": pack.generals[a1].name, "path": ["Ascalon"]},
                     {"army": pack.generals[a1].name, "path": [pack.spaces[y].name, pack.spaces[x].name]},
                     {"army": pack.generals[mixed[0]].name, "path": [pack.spaces[z].name for z in mixed[2]]}]})
    assert status == "rejected"
    assert "there is no space 'Ascalon'" in answer and "did you mean" not in answer, answer
    assert f"next to {pack.spaces[s1].name}: " in answer, answer
    assert f"e.g. path: [{pack.spaces[y].name}, {pack.spaces[s1].name}]" not in answer, answer
    assert f"e.g. path: [{pack.spaces[y].name}, " in answer, answer
    p, q = mixed[2]
    assert (f"this path mixes sea steps ({pack.spaces[p].name}–{pack.spaces[q].name}) with land steps "
            f"({pack.spaces[mixed[1]].name}–{pack.spaces[p].name})") in answer, answer


HOST = "host@pbem.localhost"


def _stage_lines(mail_text: str) -> tuple[str, str]:
    """A report's heading's stage ("Turn T (Y BC), STAGE.") and its standings line's
    ("STANDINGS - turn T (Y BC), STAGE")."""
    head = re.search(r"^Turn \d+ \(\d+ BC\), ([^.]+)\.", mail_text, re.M)
    standings = re.search(r"^STANDINGS - turn \d+ \(\d+ BC\), (.+)$", mail_text, re.M)
    assert head and standings, mail_text[:600]
    return head.group(1).strip(), standings.group(1).strip()


def test_a_new_games_mails_say_what_a_player_can_use(tmp_path: Path) -> None:
    """G, N6, N7, N8 through real mail (pbem game new, pymap): the welcome points to
    `command: help`, not to docs/orders.md, and says an option set to false is off;
    `command: help` above a copied block with a blank line between is the help; a
    rollback report's heading names the position restored, as its standings do; the
    pause mail says orders are still taken; the replaced player's old address is
    answered, every mail ("no longer plays seat east"), never dropped as a stranger's;
    the game-end standings say the game is over, not a round of the last turn."""
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        table, host_key = new_table(tmp_path, server, extra=("--option", "ask_windows=false"))
        welcome = " ".join(text(table.mails("east", "[g2] welcome: your seat east")[0]).split())
        assert "docs/orders.md" not in welcome and "`command: help`" in welcome, welcome
        assert "ask_windows: false (off; when true: R-9.3: every move" in welcome, welcome

        table.send("north@pbem.localhost", f"command: help\n\ngame: g2\nseat: north\nkey: {table.keys['north']}\n",
                   "help please")
        assert table.cycle() == ["answered"]
        table.flush()
        assert "Help for seat north" in text(table.mails("north", "Re: help please")[0])

        rng = random.Random(3)
        first_round = table.judge.state("g2").to_dict().get("round")
        for _ in range(30):  # until a new round (the rollback goes back across it)
            assert table.play("g2", rng) == "applied"
            if table.judge.state("g2").to_dict().get("round") != first_round:
                break
        table.send(HOST, f"game: g2\nhost: {host_key}\ncommand: rollback\nto_step: 0\n", "rollback")
        assert table.cycle() == ["host"]
        table.flush()
        step = table.judge.state("g2").step
        report = table.mails("east", f"[g2] step {step} report: rolled back")[0]
        head, standings = _stage_lines(text(report))
        assert head == standings, (head, standings)

        table.send(HOST, f"game: g2\nhost: {host_key}\ncommand: pause\nreason: a holiday\n", "pause")
        assert table.cycle() == ["host"]
        table.flush()
        assert "Orders are still taken" in flat(table.mails("east", "the game is paused")[0])
        table.send(HOST, f"game: g2\nhost: {host_key}\ncommand: resume\n", "resume")
        assert table.cycle() == ["host"]

        table.send(HOST, f"game: g2\nhost: {host_key}\ncommand: replace\nseat: east\n"
                         "player: Newcomer <stranger@pbem.localhost>\n", "replace")
        assert table.cycle() == ["host"]
        table.flush()
        state = table.judge.state("g2")
        old = yaml.safe_dump({"game": "g2", "seat": "east", "key": table.keys["east"], "step": state.step,
                              "orders": {}}, sort_keys=False)
        tries = table.judge.config.reply_rate_per_hour + 2  # past the strangers' limit
        for n in range(tries):
            table.send("east@pbem.localhost", old, f"old {n}")
        table.cycle()
        table.flush()
        answers = [flat(m) for n in range(tries) for m in table.mails("east", f"Re: old {n}")]
        assert len(answers) == tries, answers
        assert all("no longer plays seat east in g2" in a for a in answers), answers[0]

        table.send(HOST, f"game: g2\nhost: {host_key}\ncommand: end\nwinner: east\nreason: enough\n", "end")
        assert table.cycle() == ["host"]
        table.flush()
        end = table.mails("north", "report: the host ended the game")[0]
        _head, standings = _stage_lines(text(end))
        assert standings == "game over", standings
    finally:
        if table is not None:
            table.close()
        server.stop()

"""The orders block as real mail clients send it, through the real mail path (issue 24
items 2, 4 and 5; issue 25 item 4): the mail goes over SMTP to pymap, a running judge
polls it over IMAP and answers by mail; each test checks the answer and the game.

- 24.2: Outlook wraps an end-of-line comment at 76 columns onto column 0 between
  ``tyche:`` and ``movement:``: the move is carried out; a stray line is refused by name.
- 24.4: an Outlook reply whose header block is in Japanese (or Korean, Greek, ...) with the
  judge's prompt included unquoted below: applied, not "two orders blocks"; every mail the
  judge sent during the test is recognised as the judge's own.
- 24.5: tabs that only align end-of-line comments are accepted.
- 25.4: a lone surrogate (or a code point past U+10FFFF) written as a YAML escape is
  answered as a mistake, from a seat or from anyone, never quarantined.
"""
from __future__ import annotations

import email
import email.policy
import random
import re
import smtplib
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml

from pbem import rules
from pbem.mail.message import parse_mail
from tests.conftest import KEYS
from tests.mail.clients import outlook_reply, outlook_wrap
from tests.service.cmdmail import Mail, start, text
from tests.service.helpers import folder, mail


def _send_raw(m: Mail, sender: str, raw: bytes) -> None:
    with smtplib.SMTP("127.0.0.1", m.server.smtp_port) as smtp:
        smtp.sendmail(sender, ["judge@pbem.localhost"], raw)


def _player_turn(m: Mail) -> tuple[str, int, EmailMessage]:
    """Name the first player by mail, so the game waits for a player-turn: its seat, its
    step and the prompt the seat received."""
    state = m.judge.state("g1")
    chooser = rules.pending(state)[0].seat
    m.send(chooser, {"game": "g1", "seat": chooser, "key": KEYS[chooser], "step": state.step,
                     "orders": {"first_player": chooser}}, subject="turn order")
    assert list(m.cycle().values()) == ["applied"]
    state = m.judge.state("g1")
    decision = rules.pending(state)[0]
    assert decision.kind == "player_turn"
    [prompt] = m.mails(decision.seat, f"step {state.step}: your move")
    return decision.seat, state.step, prompt


def _one_move(m: Mail, seat: str) -> tuple[dict, str, str]:
    """Legal orders (a bot's) whose movement is one army's one-space move into a space
    nobody holds: ``(orders, general, destination)``."""
    state = m.judge.state("g1")
    for seed in range(1000):
        orders = rules.bot_orders(state, seat, random.Random(seed))
        moves = orders.get("movement")
        if not (isinstance(moves, list) and len(moves) == 1 and len(moves[0]["path"]) == 1
                and orders["tyche"]["use"] in ("discard", "garrisons", "train")):
            continue
        army, dest = moves[0]["army"], moves[0]["path"][0]
        origin = state.generals[army]["space"] if army in state.generals else army
        generals = [g for g, v in state.generals.items() if v["space"] == origin and v["seat"] == seat]
        held = dest in state.cus or any(a["space"] == dest for a in state.indep_armies.values())
        if generals and not held and "assault" not in moves[0]:
            return {"tyche": orders["tyche"], "movement": moves}, generals[0], dest
    raise AssertionError("no bot orders with a one-space move")


def _document(seat: str, step: int, orders: dict, tyche_comment: str = "") -> str:
    """The orders as a player types them: each field of the Tyche card on a line of its own
    (the last one with an end-of-line comment), then the movement."""
    tyche = [f"    {key}: {yaml.safe_dump(value, default_flow_style=True, width=1000).strip().removesuffix('...').strip()}"
             for key, value in orders["tyche"].items()]
    tyche[-1] += tyche_comment
    movement = yaml.safe_dump(orders["movement"], default_flow_style=False, sort_keys=False)
    return (f"game: g1\nseat: {seat}\nkey: {KEYS[seat]}\nstep: {step}\norders:\n  tyche:\n"
            + "".join(f"{line}\n" for line in tyche) + "  movement:\n"
            + "".join(f"    {line}\n" for line in movement.rstrip("\n").split("\n")))


def _answers(m: Mail, seat: str, subject: str = "Re: ") -> list[str]:
    return [" ".join(text(x).split()) for x in m.mails(seat, subject)]


@pytest.fixture
def table(tmp_path: Path):
    m = start(tmp_path)
    yield m
    m.close()


# --- 24.2 ----------------------------------------------------------------------------

def test_an_outlook_wrapped_comment_keeps_the_move_below_it(table: Mail) -> None:
    seat, step, _prompt = _player_turn(table)
    orders, general, dest = _one_move(table, seat)
    comment = "   # my last card of this kind; I keep the others for the march on the coast road"
    body = outlook_wrap(_document(seat, step, orders, comment))
    assert re.search(r"\n[a-z][^:\n]*road\n  movement:", body), body  # Outlook's wrap: column 0, unmarked
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{seat}@pbem.localhost", "judge@pbem.localhost", "orders"
    msg["X-Mailer"] = "Microsoft Outlook 16.0"
    msg.set_content(body)
    _send_raw(table, f"{seat}@pbem.localhost", msg.as_bytes(policy=email.policy.SMTP))
    assert list(table.cycle().values()) == ["applied"]
    assert table.judge.state("g1").generals[general]["space"] == dest  # the move was carried out
    [receipt] = _answers(table, seat, "Re: orders")
    assert "accepted" in receipt and table.judge.pack_for("g1").spaces[dest].name in receipt  # the printed name


def test_a_stray_line_inside_the_orders_is_refused_by_name(table: Mail) -> None:
    seat, step, _prompt = _player_turn(table)
    orders, _general, _dest = _one_move(table, seat)
    body = "My orders:\n\n" + _document(seat, step, orders).replace("  movement:\n", "and then we march\n  movement:\n")
    number = body.split("\n").index("and then we march") + 1
    table.send(seat, body, subject="orders")
    assert list(table.cycle().values()) == ["rejected"]
    state = table.judge.state("g1")
    assert state.step == step and rules.pending(state)[0].seat == seat
    [answer] = _answers(table, seat, "Re: orders")
    assert f"line {number - 2} (line {number} of your mail): 'and then we march' sits inside your orders block" in answer
    assert "code: mail.stray_line" in answer and "join this line to the end of the line above" in answer


def test_a_wrapped_comment_whose_tail_reads_like_a_key_is_rejoined(table: Mail) -> None:
    """24.2 (second hand-played game): the comment's tail that Outlook spilled to column 0
    starts like a key (``movement: none because …``); the real ``movement:`` follows.
    It used to be refused naming that next, correct line. The spilled line, joined to the
    comment above, gives a document and the lines as sent give none: it is rejoined, the
    move below it is carried out."""
    seat, step, _prompt = _player_turn(table)
    orders, general, dest = _one_move(table, seat)
    tail = " movement: none because we wait for Antigonus"
    probe = _document(seat, step, orders, "   # I keep my cards")
    line = next(x for x in probe.split("\n") if x.endswith("# I keep my cards"))
    comment = "   # I keep my cards" + " hand" * ((74 - len(line)) // 5)
    comment += "x" * (74 - len(line) - (len(comment) - len("   # I keep my cards")))
    body = outlook_wrap(_document(seat, step, orders, comment + tail))
    assert "\nmovement: none because we wait for Antigonus\n  movement:" in body, body  # the spill, column 0
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{seat}@pbem.localhost", "judge@pbem.localhost", "orders"
    msg["X-Mailer"] = "Microsoft Outlook 16.0"
    msg.set_content(body)
    _send_raw(table, f"{seat}@pbem.localhost", msg.as_bytes(policy=email.policy.SMTP))
    assert list(table.cycle().values()) == ["applied"], _answers(table, seat, "Re: orders")
    assert table.judge.state("g1").generals[general]["space"] == dest  # the move below was carried out


def test_a_spilled_key_line_that_does_not_fit_either_way_is_named(table: Mail) -> None:
    """24.2: when neither reading gives a document (the spilled tail plus a real mistake
    further on), the refusal names the spilled line first, as a wrapped comment."""
    seat, step, _prompt = _player_turn(table)
    orders, _general, _dest = _one_move(table, seat)
    tail = " movement: none because we wait for Antigonus"
    probe = _document(seat, step, orders, "   # I keep my cards")
    line = next(x for x in probe.split("\n") if x.endswith("# I keep my cards"))
    comment = "   # I keep my cards" + "x" * (74 - len(line))
    body = outlook_wrap(_document(seat, step, orders, comment + tail)) + "  bad: [unclosed\n"
    lines = body.split("\n")
    number = lines.index("movement: none because we wait for Antigonus") + 1
    table.send(seat, body, subject="orders")
    assert list(table.cycle().values()) == ["rejected"]
    [answer] = _answers(table, seat, "Re: orders")
    assert f"line {number}: 'movement: none because we wait for Antigonus'" in answer, answer
    assert "wrapped" in answer and "code: mail.stray_line" in answer, answer


# --- 24.4 ----------------------------------------------------------------------------

@pytest.mark.parametrize("locale", ["japanese", "korean", "greek"])
def test_an_outlook_reply_in_another_language_over_the_prompt_is_applied(table: Mail, locale: str) -> None:
    seat, step, prompt = _player_turn(table)
    orders, general, dest = _one_move(table, seat)
    raw = outlook_reply(_document(seat, step, orders) + "\nKleitos\n", text(prompt), locale=locale,
                        sender=f"{seat}@pbem.localhost", to="judge@pbem.localhost",
                        earlier_sender="pbem judge <judge@pbem.localhost>", subject=str(prompt["Subject"]),
                        in_reply_to=str(prompt["Message-ID"]), message_id=f"<outlook-{locale}@players.test>")
    _send_raw(table, f"{seat}@pbem.localhost", raw)
    assert list(table.cycle().values()) == ["applied"]
    assert table.judge.state("g1").generals[general]["space"] == dest
    receipts = [a for a in _answers(table, seat, "") if f"step {step}: orders from {seat} accepted" in a]
    assert len(receipts) == 1


def test_every_mail_the_judge_sends_is_recognised_as_its_own(table: Mail) -> None:
    """Welcomes, prompts, reports, receipts and rejections (with the block echoed), as the
    judge sent them: included unquoted below the orders, under a Japanese Outlook header
    block or with no header block at all (recognised by their own text alone), none is
    read as the player's orders nor joins them."""
    seat, step, _prompt = _player_turn(table)
    orders, _general, _dest = _one_move(table, seat)
    own = _document(seat, step, orders)
    table.send(seat, own.replace(f"step: {step}", f"step: {step + 5}"), subject="orders")  # a rejection
    table.send(seat, own, subject="orders")
    table.cycle()
    table.mails(seat, "Re: orders", 2)
    mine = "game: g1\nseat: north\nkey: k\nstep: 99\norders:\n  movement: none\n"
    kinds = set()
    for account in ("north", "east", "south", "west", "host"):
        for msg in table.inbox(account):
            earlier = text(msg)
            bare = EmailMessage()
            bare["From"], bare["To"], bare["Subject"] = "north@pbem.localhost", "judge@pbem.localhost", "Re: x"
            bare.set_content(mine + "\n" + earlier)
            for raw in (outlook_reply(mine, earlier, locale="japanese", separator=False,
                                      earlier_sender="pbem judge <judge@pbem.localhost>", subject=str(msg["Subject"])),
                        bare.as_bytes(policy=email.policy.SMTP)):
                parsed = parse_mail(raw)
                assert parsed.action == "accept" and parsed.document["step"] == 99, (msg["Subject"], parsed.problems)
            kinds.add(re.sub(r"\d+", "N", str(msg["Subject"])).split(":")[0])
    assert {"[gN] welcome", "[gN] step N", "Re"} <= kinds, kinds


# --- 24.5 ----------------------------------------------------------------------------

def test_tabs_that_align_comments_are_accepted(table: Mail) -> None:
    seat, step, _prompt = _player_turn(table)
    orders, general, dest = _one_move(table, seat)
    document = _document(seat, step, orders)
    lines = document.rstrip("\n").split("\n")
    aligned = "\n".join(line + "\t\t# " + ("the\tplan" if i % 2 else "ok") for i, line in enumerate(lines)) + "\n"
    table.send(seat, aligned, subject="orders")
    assert list(table.cycle().values()) == ["applied"]
    assert table.judge.state("g1").generals[general]["space"] == dest


def test_a_tab_in_the_indentation_still_gets_the_friendly_answer(table: Mail) -> None:
    seat, step, _prompt = _player_turn(table)
    orders, _general, _dest = _one_move(table, seat)
    table.send(seat, _document(seat, step, orders).replace("  movement:", "\tmovement:"), subject="orders")
    assert list(table.cycle().values()) == ["rejected"]
    [answer] = _answers(table, seat, "Re: orders")
    assert "code: yaml.tab" in answer and "a tab character is used for indentation" in answer


# --- 25.4 ----------------------------------------------------------------------------

@pytest.mark.parametrize("escape", ["\\ud800", "\\udbff\\udfff", "\\U00110000"])
def test_an_escape_no_mail_can_carry_is_answered_not_quarantined(table: Mail, escape: str) -> None:
    seat, step, _prompt = _player_turn(table)
    body = (f"game: g1\nseat: {seat}\nkey: {KEYS[seat]}\nstep: {step}\n"
            f"orders:\n  tyche: {{card: \"12{escape}\", use: discard}}\n  movement: none\n")
    mails = [mail(seat, body, subject="surrogate", message_id="<surrogate-1@players.test>"),
             mail("stranger", body.replace(f"key: {KEYS[seat]}", "key: guess"), subject="surrogate from a stranger",
                  message_id="<surrogate-2@players.test>")]
    for raw in mails:
        _send_raw(table, "x@pbem.localhost", raw)
    assert sorted(table.cycle().values()) == ["rejected", "rejected"]
    for account in (seat, "stranger"):
        [answer] = _answers(table, account, "Re: surrogate")
        assert "code: yaml.bad_character" in answer and "line 6" in answer, answer
    # the same mails again (as after a restart), and once more under a new Message-ID
    for raw in mails:
        _send_raw(table, "x@pbem.localhost", raw)
        _send_raw(table, "x@pbem.localhost", raw.replace(b"@players.test>", b"-again@players.test>", 1))
    assert sorted(table.cycle().values()) == ["duplicate", "duplicate", "rejected", "rejected"]
    assert folder(table.server, "Quarantine") == []
    assert not [x for x in table.inbox("host") if "quarantine" in str(x["Subject"]).lower()]
    assert table.judge.state("g1").step == step


def test_a_command_written_above_the_game_line_is_read_not_cut(table: Mail) -> None:
    """``command: resend`` written before ``game:`` (the order a player may type the
    lines in) is part of the document: the prompt is sent again. It used to be cut off
    unseen, and the rest read as orders with no ``orders:`` (issue 24: never a silent cut)."""
    seat = rules.pending(table.judge.state("g1"))[0].seat
    step = table.judge.state("g1").step
    before = len(table.mails(seat, f"step {step}: your move"))
    table.send(seat, f"command: resend\ngame: g1\nseat: {seat}\nkey: {KEYS[seat]}\n", subject="resend please")
    assert list(table.cycle().values()) == ["answered"]
    assert len(table.mails(seat, f"step {step}: your move", before + 1)) == before + 1

"""No mail from a seat's registered address goes unanswered (issue 24, finding 3: after
about 30 mails in 20 minutes a seat's mails got no answer at all, a genuine refusal
among them, "reply rate limit reached" in the log only). The seat is told when it
nears the limit; an answer past it is merged into one digest, sent when the hour
allows; identical repeated mail is answered once; strangers keep their hard limit.
Real pymap and aiosmtpd on loopback; the judge's clock is moved on by hand."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem import rules
from pbem.service import make_judge, run_once
from pbem.service.base.text import now_utc
from tests.conftest import KEYS, SEATS, Table, make_config

LIMIT = 4


@pytest.fixture
def slow_table(tmp_path: Path, pymap_server) -> Table:  # noqa: ANN001
    config = make_config(tmp_path, pymap_server, seat_reply_rate_per_hour=LIMIT, map_attachment=False)
    judge, poller = make_judge(config)
    now = [now_utc()]
    judge.clock = lambda: now[0]
    judge.ensure_games()
    run_once(judge, poller)
    table = Table(pymap_server, config, judge, poller)
    table.now = now  # type: ignore[attr-defined]
    yield table
    poller.close()


def _answers(table: Table, account: str) -> list[tuple[str, str]]:
    return [(str(m["Subject"]), table.text_of(m)) for m in table.inbox(account) if "Re:" in str(m["Subject"])
            or "answers" in str(m["Subject"])]


def _mistake(n: int) -> str:
    return f"game: g1\nseat: north\nkey: north-test-key\nstep: 0\norders:\n  garrisons: {n}\n"


def test_a_seat_past_its_limit_is_told_near_it_and_gets_the_rest_in_a_digest(slow_table: Table) -> None:
    table = slow_table
    seat = _pending(table)[1]
    for n in range(1, LIMIT + 3):  # two past the limit; no orders (a real refusal goes at once, 24 B/N2)
        table.send(seat, f"Hello judge, question {n}: when does my turn come?", subject=f"try {n}")
    statuses = run_once(table.judge, table.poller)
    assert len(statuses) == LIMIT + 2
    rows = table.judge.store.db.execute("SELECT subject, answer FROM inbox WHERE sender = ? ORDER BY id",
                                        (f"{seat}@pbem.localhost",)).fetchall()
    assert all(answer != "suppressed" for _s, answer in rows), rows
    answered = _answers(table, seat)
    assert [s for s, _t in answered] == [f"Re: try {n}" for n in range(1, LIMIT + 1)]
    assert "limit" not in answered[0][1]
    assert "digest" in answered[-1][1] and f"{LIMIT}" in answered[-1][1], answered[-1][1]

    table.now[0] += timedelta(minutes=61)  # the hour allows again
    run_once(table.judge, table.poller)
    digests = [(s, t) for s, t in _answers(table, seat) if not s.startswith("Re: try")]
    assert len(digests) == 1, digests
    subject, text = digests[0]
    assert "2" in subject
    assert "try 5" in text and "try 6" in text
    run_once(table.judge, table.poller)
    assert len([s for s, _t in _answers(table, seat) if not s.startswith("Re: try")]) == 1, "sent once"


def test_identical_repeated_mail_is_answered_once(slow_table: Table) -> None:
    table = slow_table
    for _ in range(3):
        table.send("north", _mistake(7), subject="same again")
    run_once(table.judge, table.poller)
    assert [s for s, _t in _answers(table, "north")] == ["Re: same again"]
    rows = table.judge.store.db.execute("SELECT answer FROM inbox WHERE subject = 'same again' ORDER BY id").fetchall()
    assert [r[0] for r in rows] == [None, "repeat", "repeat"]


def test_a_stranger_keeps_the_hard_limit(slow_table: Table) -> None:
    table = slow_table
    for n in range(8):
        table.send("stranger", f"game: g1\nseat: north\nkey: guess-{n}\nstep: 0\norders: {{}}\n", subject=f"s {n}")
    run_once(table.judge, table.poller)
    table.now[0] += timedelta(minutes=61)
    run_once(table.judge, table.poller)
    answered = [m for m in table.inbox("stranger") if "Re:" in str(m["Subject"])]
    assert len(answered) == table.config.reply_rate_per_hour
    assert not [m for m in table.inbox("stranger") if "answers" in str(m["Subject"])], "no digest for strangers"


def _pending(table: Table) -> tuple[str, str]:
    """The seat the game waits for at step 0, and a seat it does not wait for."""
    waiting = {d.seat for d in rules.pending(table.judge.state("g1"))}
    return min(waiting), min(set(SEATS) - waiting)


def _bad_orders(seat: str, n: int) -> str:
    return f"game: g1\nseat: {seat}\nkey: {KEYS[seat]}\nstep: 0\norders:\n  garrisons: {n}\n"


def test_a_refusal_of_the_orders_the_game_waits_for_goes_at_once_past_the_limit(slow_table: Table) -> None:
    """24.B: past the hourly limit, the refusal of the orders the game waits for (a
    decision of the game, with a deadline) is sent at once, not kept for the digest; the
    receipt of the orders that follow too. A seat the game does not wait for keeps the
    digest, and so do repeats."""
    table = slow_table
    seat, other = _pending(table)
    for n in range(1, LIMIT + 1):  # the limit reached with other answers (mails with no orders)
        table.send(seat, f"Hello judge, question {n}: when does the game start?", subject=f"question {n}")
    run_once(table.judge, table.poller)
    assert len(_answers(table, seat)) == LIMIT
    table.send(seat, _bad_orders(seat, 7), subject="real mistake")
    table.send(seat, _bad_orders(seat, 7), subject="real mistake")  # a repeat: answered once
    table.send(other, _bad_orders(other, 7), subject="not mine")
    run_once(table.judge, table.poller)
    answered = _answers(table, seat)
    [refusal] = [t for s, t in answered if s == "Re: real mistake"]
    assert "garrisons" in refusal and "not applied" in refusal.lower(), refusal
    state = table.judge.state("g1")
    decision = next(d for d in rules.pending(state) if d.seat == seat)
    table.send(seat, table.orders_doc(seat, state.step, dict(decision.default)), subject="fixed")
    assert list(run_once(table.judge, table.poller).values()) == ["applied"]
    assert [s for s, _t in _answers(table, seat)].count("Re: fixed") == 1
    rows = dict(table.judge.store.db.execute("SELECT subject, answer FROM inbox WHERE sender = ? AND subject IN "
                                             "('real mistake', 'fixed') ORDER BY id", (f"{seat}@pbem.localhost",)
                                             ).fetchall())
    assert rows["fixed"] is None
    assert [r[0] for r in table.judge.store.db.execute(
        "SELECT answer FROM inbox WHERE subject = 'real mistake' ORDER BY id").fetchall()] == [None, "repeat"]
    assert table.judge.store.db.execute("SELECT answer FROM inbox WHERE subject = 'not mine'").fetchone()[0] \
        in (None, "digest")  # the other seat is under its own limit: answered as usual


def test_real_refusals_of_any_seat_go_at_once_one_in_five_minutes(slow_table: Table) -> None:
    """24 B/N2: past the hourly limit, a real refusal from a seat's registered address
    goes at once even when the game does not wait for that seat, and so does a wrong
    key from the awaited seat; at most one such answer in 5 minutes per address (the
    next joins the digest); a stranger keeps the hard limit."""
    table = slow_table
    seat, other = _pending(table)
    for who in (seat, other):
        for n in range(1, LIMIT + 1):  # the limit reached with answers to mails with no orders
            table.send(who, f"Hello judge, question {n}: when does the game start?", subject=f"{who} question {n}")
    run_once(table.judge, table.poller)
    assert len(_answers(table, other)) == LIMIT and len(_answers(table, seat)) == LIMIT
    table.send(other, _bad_orders(other, 7), subject="not awaited")
    table.send(seat, _bad_orders(seat, 7).replace(KEYS[seat], "wrong-key"), subject="wrong key")
    run_once(table.judge, table.poller)
    [refusal] = [t for s, t in _answers(table, other) if s == "Re: not awaited"]
    assert "garrisons" in refusal and "not applied" in refusal.lower(), refusal
    [wrong] = [t for s, t in _answers(table, seat) if s == "Re: wrong key"]
    assert "key" in wrong.lower(), wrong

    table.now[0] += timedelta(minutes=2)  # within 5 minutes: the next one joins the digest
    table.send(other, _bad_orders(other, 8), subject="again soon")
    run_once(table.judge, table.poller)
    assert "Re: again soon" not in [s for s, _t in _answers(table, other)]
    assert table.judge.store.db.execute("SELECT answer FROM inbox WHERE subject = 'again soon'").fetchone()[0] \
        == "digest"
    table.now[0] += timedelta(minutes=4)  # 6 minutes after the first: at once again
    table.send(other, _bad_orders(other, 9), subject="later")
    run_once(table.judge, table.poller)
    assert [s for s, _t in _answers(table, other)].count("Re: later") == 1


def test_a_digest_past_the_limit_goes_within_ten_minutes_not_an_hour(slow_table: Table) -> None:
    """Issue 24, the fourth hand-played game, N2: past the hourly limit a refusal that
    joined the digest (an urgent answer had just gone) waited for the hour, up to 51
    minutes. Now the digest goes as an urgent mail once its oldest answer has waited 5
    minutes and no urgent answer went in the last 5; within those 5 it waits."""
    table = slow_table
    seat, other = _pending(table)
    for n in range(1, LIMIT + 1):  # the limit reached
        table.send(other, f"Hello judge, question {n}: when does the game start?", subject=f"question {n}")
    run_once(table.judge, table.poller)
    table.send(other, _bad_orders(other, 7), subject="first refusal")
    run_once(table.judge, table.poller)
    assert [s for s, _t in _answers(table, other)].count("Re: first refusal") == 1  # urgent, at once
    table.now[0] += timedelta(minutes=1)
    table.send(other, _bad_orders(other, 8), subject="second refusal")
    run_once(table.judge, table.poller)
    table.now[0] += timedelta(minutes=3)  # 4 minutes after the urgent one: it still waits
    run_once(table.judge, table.poller)
    digests = [t for s, t in _answers(table, other) if "answers" in s]
    assert digests == []
    table.now[0] += timedelta(minutes=3)  # 7 minutes after: the digest goes, long before the hour
    run_once(table.judge, table.poller)
    digests = [t for s, t in _answers(table, other) if "answers" in s]
    assert len(digests) == 1 and "second refusal" in digests[0], digests
    run_once(table.judge, table.poller)
    assert len([s for s, _t in _answers(table, other) if "answers" in s]) == 1, "sent once"


def test_the_notes_about_the_limit_are_in_the_seats_language(slow_table: Table) -> None:
    """try28e: a Russian (or Spanish) seat near its hourly limit read "Note: this is
    answer 2 of 4 the judge sends to your address within an hour ..." in English under
    a Russian answer, and an attachment left out of its digest "(Not in this digest:
    the attached g1-archive.zip ...)": both now in the seat's language."""
    table = slow_table
    seat = "north"
    head = f"game: g1\nseat: {seat}\nkey: {KEYS[seat]}\n"
    table.send(seat, head + "command: preferences\nlanguage: ru\n", subject="язык")
    run_once(table.judge, table.poller)
    for n in (2, 3, 4):
        table.send(seat, f"Привет, судья, вопрос {n}.", subject=f"вопрос {n}")
        run_once(table.judge, table.poller)
    table.send(seat, head + "command: archive\n", subject="архив")  # past the limit: kept for the digest
    run_once(table.judge, table.poller)
    answered = dict(_answers(table, seat))
    second = " ".join(answered["Re: вопрос 2"].split())
    assert "Примечание: это ответ 2 из 4, которые судья отправляет на ваш адрес за час." in second, second
    assert "Note: this is answer" not in second
    table.now[0] += timedelta(minutes=61)
    run_once(table.judge, table.poller)
    digest = next(" ".join(table.text_of(m).split()) for m in table.inbox(seat)
                  if "Re: архив" in table.text_of(m))
    assert "(Не вошло в эту сводку: вложение g1-archive.zip." in digest, digest
    assert "Not in this digest" not in digest

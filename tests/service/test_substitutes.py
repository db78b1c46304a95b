"""Substitutes through the real mail path (issue 29, item 2): an address stands by
(`command: standby`), a seat falls into civil disorder and is offered to it, the
substitute takes it (`command: take`) and gets the handover mail with a new key, plays
with it while the old player's mail is refused; with `substitutes: approve` the host
approves the take; and a seat taken over in civil disorder gets its waiting decision
at its full length (it was missed again at once). `pbem verify` passes after each."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from pbem import rules
from tests.conftest import ACCOUNTS, mail_orders
from tests.mailservers import start_pymap
from tests.service.tablemail import Table, flat, key_in, new_table

STRANGER = "stranger@pbem.localhost"


def _fall(table: Table, game_id: str = "g2") -> str:
    """Let the deadline of the seat ``game_id`` waits for pass (the judge's clock moved
    past it): with ``nmr_limit: 1`` the seat falls into civil disorder. Returns it."""
    state = table.judge.state(game_id)
    seat = rules.pending(state)[0].seat
    due = datetime.fromisoformat(table.judge.store.deadline(game_id, state.step, seat)["due_at"])
    table.offset[0] += due - datetime.now(UTC) - table.offset[0] + timedelta(seconds=5)
    table.cycle()
    table.flush()
    assert [e.data["seat"] for e in table.judge.store.events(game_id) if e.kind == "CivilDisorderDeclared"] == [seat]
    return seat


def _since(table: Table, kind: str, game_id: str = "g2") -> list[dict]:
    """The data of the ``kind`` events after the last ``SeatChanged``."""
    events = table.judge.store.events(game_id)
    last = max(i for i, e in enumerate(events) if e.kind == "SeatChanged")
    return [e.data for e in events[last + 1:] if e.kind == kind]


def _verify(table: Table, game_id: str = "g2") -> None:
    table.close()
    v = table.cli("verify", game_id)
    assert v.exit_code == 0 and "replay equals live state" in v.output, v.output


def test_a_substitute_takes_a_seat_in_civil_disorder_and_plays_it(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", {**ACCOUNTS, "newhome": "npw"})
    try:
        table, _host_key = new_table(tmp_path, server, extra=("--setting", "nmr_limit=1"))


        # a seat's player may not stand by for their own game; a take before standing by is refused
        table.send("north@pbem.localhost", "game: g2\ncommand: standby\nstandby: true\n", "standby")
        table.send(STRANGER, "game: g2\ncommand: take\ntake: east\n", "early")
        assert table.cycle() == ["rejected", "rejected"]
        table.flush()
        assert "command.plays_already" in flat(table.mails("north", "Re: standby")[0])
        assert "command.not_standing_by" in flat(table.mails("stranger", "Re: early")[0])

        table.send(STRANGER, "game: g2\ncommand: standby\nstandby: true\nname: Eumenes\n", "standby")
        table.send("newhome@pbem.localhost", "game: any\ncommand: standby\nstandby: true\n", "standby")
        assert table.cycle() == ["answered", "answered"]
        table.flush()
        assert "You now stand by to take a seat of game g2" in flat(table.mails("stranger", "Re: standby")[0])
        # no seat is free yet
        table.send(STRANGER, "game: g2\ncommand: take\ntake: east\n", "too soon")
        assert table.cycle() == ["rejected"]
        table.flush()
        assert "command.seat_not_free" in flat(table.mails("stranger", "Re: too soon")[0])

        seat = _fall(table)
        offer = table.mails("stranger", f"[g2] seat {seat} is free: take it?")
        assert len(offer) == 1 and f"command: take take: {seat}" in flat(offer[0])
        assert table.mails("newhome", f"[g2] seat {seat} is free: take it?")  # both on the list are offered it
        notice = table.mails("host", "civil disorder")
        assert "offered to the 2 addresses on the standby list" in flat(notice[0])
        old_key = table.keys[seat]
        state = table.judge.state("g2")
        assert rules.pending(state)[0].seat == seat  # its next decision waits, due at once in civil disorder

        table.send(STRANGER, f"game: g2\ncommand: take\ntake: {seat.upper()}\n", "take")
        assert table.cycle() == ["answered"]
        table.flush()
        assert f"The seat {seat} of g2 is yours, Eumenes" in flat(table.mails("stranger", "Re: take")[0])
        handover = table.mails("stranger", f"[g2] handover: your seat {seat}")
        new_key = key_in(handover[0])
        assert new_key != old_key and "seat's own history" in flat(handover[0])
        assert table.mails("stranger", f"[g2] step {state.step}")  # the prompt again, to the new address
        told = table.mails(seat, f"[g2] your seat {seat} has a new player")
        assert "standby list" in flat(told[0]) and new_key not in flat(told[0])
        host = table.mails("host", "host notice: substitute")
        assert f"took the seat {seat} of g2" in flat(host[0]) and new_key not in flat(host[0])
        changed = [e.data for e in table.judge.store.events("g2") if e.kind == "SeatChanged"]
        assert changed == [{"seat": seat, "changed": ["player", "address", "key"], "player": "Eumenes",
                            "by": "standby"}]
        assert _since(table, "SeatReturned") == [{"seat": seat, "was_in_disorder": True, "by": "standby"}]
        # the new player's decision was not missed in the same cycle: it waits its full length
        assert _since(table, "DecisionMissed") == []
        due = datetime.fromisoformat(table.judge.store.deadline("g2", state.step, seat)["due_at"])
        assert due - table.judge.clock() > timedelta(hours=71)
        assert table.judge.store.seat_offer("g2", seat)["status"] == "taken"
        assert "taken by another substitute" in flat(table.mails("newhome", f"[g2] seat {seat} is taken")[0])
        assert not [m for m in table.inbox("stranger") if "is taken" in str(m["Subject"])]

        # a second take of the same seat is refused; the old player's mail no longer speaks for it
        table.send(STRANGER, f"game: g2\ncommand: take\ntake: {seat}\n", "again")
        doc = {"game": "g2", "seat": seat, "key": old_key, "step": state.step,
               "orders": mail_orders(state, seat, random.Random(3))}
        table.send(f"{seat}@pbem.localhost", yaml.safe_dump(doc, sort_keys=False), "old orders")
        out = table.cycle()
        assert "applied" not in out and len(out) == 2, out
        assert rules.pending(table.judge.state("g2"))[0].seat == seat
        # the substitute plays with the new key from their own address
        table.keys[seat] = new_key
        assert table.play("g2", random.Random(5), {seat: STRANGER}) == "applied"
        accepted = _since(table, "OrdersAccepted")
        assert accepted and accepted[0]["seat"] == seat and accepted[0]["by"] == "mail"
        _verify(table)
    finally:
        server.stop()


def test_with_substitutes_approve_the_host_approves_the_take(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, host_key = new_table(tmp_path, server, extra=("--setting", "nmr_limit=1",
                                                             "--setting", "substitutes=approve"))

        table.send(STRANGER, "game: any\ncommand: standby\nstandby: true\n", "standby")
        assert table.cycle() == ["answered"]
        table.flush()
        assert "every game of this judge" in flat(table.mails("stranger", "Re: standby")[0])
        seat = _fall(table)
        offer = table.mails("stranger", f"[g2] seat {seat} is free: take it?")
        assert "The host approves" in flat(offer[0])

        table.send(STRANGER, f"game: g2\ncommand: take\ntake: {seat}\n", "take")
        assert table.cycle() == ["answered"]
        table.flush()
        assert "Its host approves substitutes" in flat(table.mails("stranger", "Re: take")[0])
        assert not [e for e in table.judge.store.events("g2") if e.kind == "SeatChanged"]  # nothing yet
        asks = table.mails("host", "host notice: substitute asks")
        assert f"command: approve seat: {seat}" in flat(asks[0])
        status = table.cli("host", "status", "g2")
        assert f"{seat}: stranger <{STRANGER}> asks for it" in " ".join(status.output.split())

        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: approve\nseat: {seat}\n", "approve")
        assert table.cycle() == ["host"]
        table.flush()
        assert "handover mail with the new key is queued" in flat(table.mails("host", "Re: approve")[0])
        handover = table.mails("stranger", f"[g2] handover: your seat {seat}")
        table.keys[seat] = key_in(handover[0])
        changed = [e.data for e in table.judge.store.events("g2") if e.kind == "SeatChanged"]
        assert changed and changed[-1]["by"] == "standby" and changed[-1]["player"] == "stranger"
        assert _since(table, "DecisionMissed") == []
        assert table.play("g2", random.Random(7), {seat: STRANGER}) == "applied"
        _verify(table)
    finally:
        server.stop()


def test_a_new_player_given_a_seat_in_civil_disorder_gets_the_full_deadline(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, host_key = new_table(tmp_path, server, extra=("--setting", "nmr_limit=1"))

        seat = _fall(table)
        state = table.judge.state("g2")
        assert rules.pending(state)[0].seat == seat
        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: replace\nseat: {seat}\n"
                   f"player: Eumenes <{STRANGER}>\n", "replace")
        assert table.cycle() == ["host"]
        table.flush()
        # the deadline pass of the same cycle did not take the new player's decision for missed
        assert _since(table, "DecisionMissed") == []
        assert rules.pending(table.judge.state("g2"))[0].seat == seat
        due = datetime.fromisoformat(table.judge.store.deadline("g2", state.step, seat)["due_at"])
        assert due - table.judge.clock() > timedelta(hours=71)
        table.keys[seat] = key_in(table.mails("stranger", f"[g2] handover: your seat {seat}")[0])
        assert table.play("g2", random.Random(9), {seat: STRANGER}) == "applied"
        _verify(table)
    finally:
        server.stop()


def test_a_seat_the_host_hands_to_the_bot_is_offered_and_a_substitute_takes_it_from_the_bot(tmp_path: Path) -> None:
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, host_key = new_table(tmp_path, server)
        table.send(STRANGER, "game: g2\ncommand: standby\nstandby: true\n", "standby")
        assert table.cycle() == ["answered"]
        seat = "east"
        table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: replace\nseat: {seat}\nbot: true\n",
                   "to the bot")
        assert table.cycle() == ["host"]
        table.flush()
        assert "offered to the 1 address(es) on the standby list" in flat(table.mails("host", "Re: to the bot")[0])
        offer = table.mails("stranger", f"[g2] seat {seat} is free: take it?")
        assert "handed it to the game's bot" in flat(offer[0])

        table.send(STRANGER, f"game: g2\ncommand: take\ntake: {seat}\n", "take")
        assert table.cycle() == ["answered"]
        table.flush()
        table.keys[seat] = key_in(table.mails("stranger", f"[g2] handover: your seat {seat}")[0])
        events = table.judge.store.events("g2")
        left = [e.data for e in events if e.kind == "BotLeft"]
        assert left and left[-1]["seat"] == seat and left[-1]["why"] == "standby"
        assert [e.data.get("by") for e in events if e.kind == "SeatChanged"] == [None, "standby"]
        assert table.judge.store.seat_offer("g2", seat)["status"] == "taken"
        # the seat is the substitute's: when it is waited on, their orders are applied
        for n in range(12):
            if rules.pending(table.judge.state("g2"))[0].seat == seat:
                break
            assert table.play("g2", random.Random(n)) == "applied"
        assert table.play("g2", random.Random(11), {seat: STRANGER}) == "applied"
        _verify(table)
    finally:
        server.stop()


def test_a_standby_refused_says_its_one_reason(tmp_path: Path) -> None:
    """Issue 29's trial, finding 3: the example config's game refused `standby` with three
    reasons at once; each refusal now says the one that holds."""
    from tests.service.cmdmail import new_game, start, text

    m = start(tmp_path)  # g1 is a game of the config file
    try:
        new_game(m, "g3", {"substitutes": "off"})
        for game in ("g1", "g3", "nope"):
            m.send("newhome", f"game: {game}\ncommand: standby\nstandby: true\n", f"standby {game}")
        m.cycle()
        said = {g: " ".join(text(m.mails("newhome", f"Re: standby {g}")[0]).split()) for g in ("g1", "g3", "nope")}
        assert "Game g1 is defined in the judge's config file; its seats change only there, so it takes no " \
               "substitutes." in said["g1"] and "command.config_game" in said["g1"], said["g1"]
        assert "The host of game g3 turned substitutes off" in said["g3"] and "command.no_substitutes" in said["g3"]
        assert "There is no game 'nope' on this judge." in said["nope"] and "envelope.unknown_game" in said["nope"]
        for answer in said.values():  # one reason each, not the list of every possible one
            assert "unknown or over" not in answer and answer.count("takes no substitutes") <= 1, answer
        assert m.judge.store.standby_list("g1") == [] and m.judge.store.standby_list("g3") == []
    finally:
        m.close()


def test_a_substitute_who_takes_in_spanish_gets_the_handover_and_the_seat_in_spanish(tmp_path: Path) -> None:
    """Issue 28 trial (trial2829): a `take` with `language: es` got its short answer in
    Spanish but the handover mail, and every mail of the seat after it, in English (the
    handover's words were not translated and the seat went back to English). Now the
    take's language is the seat's from the handover on, and the old player is told in
    their own language."""
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    try:
        table, _host_key = new_table(tmp_path, server, extra=("--setting", "nmr_limit=1"))
        seat = rules.pending(table.judge.state("g2"))[0].seat
        table.send(f"{seat}@pbem.localhost", f"game: g2\nseat: {seat}\nkey: {table.keys[seat]}\n"
                   "command: preferences\nlanguage: ru\n", "prefs")
        table.send(STRANGER, "game: g2\ncommand: standby\nstandby: true\nname: Eumenes\nlanguage: es\n", "standby")
        assert table.cycle() == ["answered", "answered"]
        assert _fall(table) == seat
        step = table.judge.state("g2").step
        table.send(STRANGER, f"game: g2\ncommand: take\ntake: {seat}\nlanguage: es\n", "take")
        assert table.cycle() == ["answered"]
        table.flush()
        handover = table.mails("stranger", f"[g2] traspaso: tu asiento {seat}")
        assert len(handover) == 1, [str(m["Subject"]) for m in table.inbox("stranger")]
        body = flat(handover[0])
        assert f"Bienvenido a g2, Eumenes: tomas el asiento {seat}" in body
        assert "La clave de tu asiento es:" in body and "Welcome" not in body and "Your seat key" not in body
        assert table.mails("stranger", f"[g2] step {step}: te toca, {seat}")  # the prompt again, in Spanish
        told = table.mails(seat, f"[g2] у вашего места {seat} новый игрок")  # the old player, in their own language
        assert told and "Thank you" not in flat(told[0]), [str(m["Subject"]) for m in table.inbox(seat)]
        prefs = [e.data for e in table.judge.store.events("g2") if e.kind == "PreferencesSet"]
        assert prefs[-1]["seat"] == seat and prefs[-1]["prefs"]["language"] == "es"
        _verify(table)
    finally:
        server.stop()

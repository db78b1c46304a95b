"""A seat's change of address (issue 16) through the real mail path: asked from the old
address with the key, confirmed from the new one with the mailed code, logged as a
keyed digest; wrong, replaced and expired codes get one answer; config games refused."""
from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.service.commands.seat.address import MAX_TRIES, PER_DAY, address_digest
from tests.conftest import KEYS
from tests.service.cmdmail import new_game, start, text


def _code(mail) -> str:
    return re.search(r"confirm: (\S+)", text(mail)).group(1)


def test_address_change_confirmed_from_both_addresses(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        keys = new_game(m, "g2")
        ask = {"game": "g2", "seat": "east", "key": keys["east"], "command": "address",
               "to": "New East <newhome@pbem.localhost>"}
        m.send("east", ask)
        m.send("west", {"game": "g1", "seat": "west", "key": KEYS["west"], "command": "address",
                        "to": "stranger@pbem.localhost"})
        m.send("south", {"game": "g2", "seat": "south", "key": keys["south"], "command": "address",
                         "to": "north@pbem.localhost"})
        assert sorted(m.cycle().values()) == ["answered", "answered", "rejected"]  # no oracle on north's address
        confirm = m.mails("newhome", "confirm your address for seat east")
        assert len(confirm) == 1 and max(len(line) for line in text(confirm[0]).splitlines()) <= 72
        code = _code(confirm[0])
        assert "newhome@pbem.localhost" in text(m.mails("east", "Re: command")[0])
        assert "ask the host" in text(m.mails("west", "Re: command")[0]).replace("\n", " ").lower()
        assert "another seat" not in text(m.mails("south", "Re: command")[0]).replace("\n", " ")
        north_code = _code(m.mails("north", "confirm your address for seat south")[0])
        m.send("north", {"game": "g2", "seat": "south", "confirm": north_code})
        assert list(m.cycle().values()) == ["rejected"]  # one seat per address: refused when confirmed
        assert "address of seat north" in text(m.mails("north", "Re: command")[0]).replace("\n", " ")
        assert code not in str(list(m.judge.store.db.execute("SELECT * FROM address_changes")))

        # wrong codes, from the new address and from another one: one answer, no oracle
        m.send("newhome", {"game": "g2", "seat": "east", "confirm": "wrong-code"})
        m.send("stranger", {"game": "g2", "seat": "east", "confirm": code})
        assert sorted(m.cycle().values()) == ["rejected", "rejected"]
        answers = [text(m.mails(a, "Re: command")[0]).split("----")[0] for a in ("newhome", "stranger")]
        assert all("No address change waits" in a for a in answers)
        assert m.judge.store.seats("g2")[1]["email"] == "east@pbem.localhost"
        reasons = [r[0] for r in m.judge.store.db.execute("SELECT reason FROM inbox WHERE sender IN "
                                                          "('newhome@pbem.localhost', 'stranger@pbem.localhost')")]
        assert reasons == ["auth.code.wrong", "auth.code.wrong"]  # failed claims, never wrong keys (issue 25.3)

        m.send("newhome", {"game": "g2", "seat": "east", "confirm": code})
        assert list(m.cycle().values()) == ["answered"]
        row = next(r for r in m.judge.store.seats("g2") if r["seat"] == "east")
        assert row["email"] == "newhome@pbem.localhost"
        assert "Confirmed" in text(m.mails("newhome", "Re: command", 2)[-1])
        assert "newhome@pbem.localhost" in text(m.mails("east", "address changed")[0])
        changed = [e for e in m.judge.store.events("g2") if e.kind == "AddressChanged"]
        assert [e.data for e in changed] == [{"seat": "east",
                                              "address": address_digest(row["key_hash"], row["email"])}]
        assert "newhome" not in str([e.data for e in m.judge.store.events("g2")])
        # the code is used once; the new address now speaks for the seat, the old one does not
        m.send("newhome", {"game": "g2", "seat": "east", "confirm": code})
        m.send("newhome", {"game": "g2", "seat": "east", "key": keys["east"], "command": "help"})
        m.send("east", {"game": "g2", "seat": "east", "key": keys["east"], "command": "help"})
        assert sorted(m.cycle().values()) == ["answered", "held", "rejected"]  # held: the right key elsewhere
        assert any("Help for seat east" in text(x) for x in m.mails("newhome", "Re: command", 4))

        # a new request replaces the old one; codes expire
        north = {"game": "g2", "seat": "north", "key": keys["north"], "command": "address",
                 "to": "stranger@pbem.localhost"}
        m.send("north", north)
        m.cycle()
        m.send("north", north)
        m.cycle()
        first, second = (_code(x) for x in m.mails("stranger", "confirm your address for seat north", 2))
        m.send("stranger", {"game": "g2", "seat": "north", "confirm": first})
        assert list(m.cycle().values()) == ["rejected"]
        m.offset[0] += timedelta(hours=49)
        m.send("stranger", {"game": "g2", "seat": "north", "confirm": second})
        assert list(m.cycle().values()) == ["rejected"]
        assert next(r for r in m.judge.store.seats("g2") if r["seat"] == "north")["email"] == "north@pbem.localhost"
        # five wrong codes close a request: the right one no longer works
        m.send("north", north)
        m.cycle()
        third = _code(m.mails("stranger", "confirm your address for seat north", 3)[-1])
        for n in range(MAX_TRIES):
            m.send("stranger", {"game": "g2", "seat": "north", "confirm": f"guess-{n}"})
        assert list(m.cycle().values()) == ["rejected"] * MAX_TRIES
        m.send("stranger", {"game": "g2", "seat": "north", "confirm": third})
        assert list(m.cycle().values()) == ["rejected"]
        statuses = [r[0] for r in m.judge.store.db.execute("SELECT status FROM address_changes ORDER BY id")]
        assert sorted(statuses[:2]) == ["done", "taken"] and statuses[2:] == ["replaced", "expired", "failed"]
        # at most PER_DAY requests a day (each mails an address that is no seat's); odd documents are answered
        for _ in range(PER_DAY - 1):
            m.send("north", north)
            m.cycle()
        m.send("north", north)
        m.send("stranger", {"game": "g2", "seat": ["north"], "confirm": ["x"]})
        assert list(m.cycle().values()) == ["rejected", "rejected"]
        assert len(m.mails("stranger", "confirm your address for seat north", 5)) == 5
        assert any(f"{PER_DAY} address changes within 24 hours" in text(x).replace("\n", " ")
                   for x in m.mails("north", "Re: command"))
    finally:
        path = m.path
        m.close()
    v = CliRunner().invoke(main, ["verify", "-c", str(path), "g2"])
    assert v.exit_code == 0 and "replay equals live state" in v.output, v.output

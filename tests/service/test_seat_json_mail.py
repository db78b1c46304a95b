"""The machine-readable report through the real mail path (issue 29 item 6): a seat
that sets ``json: on`` gets its own view as a JSON attachment with every turn report,
valid against the published schema, equal to what the judge's state shows that seat,
and holding no other seat's secret; the other seats get none; ``json: off`` stops it."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.report import seatjson
from tests.conftest import KEYS, SEATS
from tests.service.cmdmail import start, text
from tests.service.helpers import orders_body


def _json_parts(msg) -> list:
    return [p for p in msg.walk() if p.get_content_type() == "application/json"]


def _reports(m, seat: str) -> list:
    return [x for x in m.inbox(seat) if "report:" in str(x["Subject"])]


def test_a_seat_with_json_on_gets_its_view_with_each_report(tmp_path: Path) -> None:
    m = start(tmp_path)
    try:
        watcher = rules.pending(m.judge.state("g1"))[0].seat  # it moves too: its prompts carry no JSON
        m.send(watcher, {"game": "g1", "seat": watcher, "key": KEYS[watcher], "command": "preferences",
                         "json": "on"})
        assert list(m.cycle().values()) == ["answered"]
        assert "json: on" in text(m.mails(watcher, "Re: command")[0])
        before = {s: len(_reports(m, s)) for s in SEATS}
        validator = jsonschema.Draft202012Validator(seatjson.schema())
        secrets = [KEYS[s] for s in SEATS if s != watcher] + [m.judge.store.game("g1")["seed"]]
        for n in range(1, 4):
            mover, body = orders_body(m.judge, seed=n)
            m.send(mover, body, subject="orders")
            assert list(m.cycle().values()) == ["applied"]
            step = m.judge.state("g1").step
            new = m.mails(watcher, "report:", before[watcher] + n)[before[watcher]:]
            assert len(new) == n
            parts = _json_parts(new[-1])
            assert len(parts) == 1
            assert parts[0].get_filename().startswith("g1-step") and parts[0].get_filename().endswith(
                f"-{watcher}.json")
            raw = parts[0].get_content()
            raw = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            doc = json.loads(raw)
            assert not [e.message for e in validator.iter_errors(doc)]
            assert (doc["format"], doc["version"], doc["game"], doc["seat"]) == ("pbem-seat-report", 1, "g1", watcher)
            assert f"step {doc['step']} report" in str(new[-1]["Subject"])
            state = m.judge.state("g1")
            assert state.step == step and doc["view"] == json.loads(json.dumps(rules.view(state, watcher)))
            assert doc["view"]["private"]["hand"] == state.peek()["private"][watcher]["hand"]
            assert all(e["public"] or e["data"].get("seat") == watcher for e in doc["events"])
            assert doc["events"], "the step's events are in it"
            assert not [s for s in secrets if s in raw]
            waits = [d.kind for d in rules.pending(state) if d.seat == watcher]
            assert [w["kind"] for w in doc["waiting"]] == waits
            for other in SEATS:
                if other != watcher:
                    got = m.mails(other, "report:", before[other] + n)[before[other]:]
                    assert not _json_parts(got[-1])
        m.send(watcher, {"game": "g1", "seat": watcher, "key": KEYS[watcher], "command": "preferences",
                         "json": "off"})
        assert list(m.cycle().values()) == ["answered"]
        mover, body = orders_body(m.judge, seed=9)
        m.send(mover, body, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        last = m.mails(watcher, "report:", before[watcher] + 4)[-1]
        assert not _json_parts(last)
    finally:
        path = m.path
        m.close()
    v = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert v.exit_code == 0 and "replay equals live state" in v.output, v.output

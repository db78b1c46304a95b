"""The machine-readable report (issue 29 item 6, :mod:`pbem.report.seatjson`): every
seat's document validates against the published schema, and holds nothing the seat's
view hides — re-dealing the cards the seat has not seen, emptying the other seats'
standing orders and changing the dice seed leave it unchanged."""
from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.report import seatjson
from pbem.rules.bots.seat_view import redeal, seat_view
from pbem.rules.dice import Dice

DOCS = Path(__file__).resolve().parents[2] / "docs" / "seat-report.schema.json"


@pytest.fixture(scope="module")
def pack():
    return load_pack()


@pytest.fixture(scope="module")
def validator():
    jsonschema.Draft202012Validator.check_schema(seatjson.schema())
    return jsonschema.Draft202012Validator(seatjson.schema())


def _games(pack, games: int, decisions: int):
    """Seeded random-bot games: ``(state, events)`` after each decision."""
    for g in range(games):
        seed = f"json-{g}".encode()
        state, events = rules.new_game(pack, seed, {"ask_windows": g % 2 == 0})
        yield state, events
        rng = random.Random(g)
        for _ in range(decisions):
            pending = rules.pending(state)
            if not pending:
                break
            d = pending[0]
            state, events = rules.apply(state, d.seat, rules.bot_orders(state, d.seat, rng), Dice(seed, state.step))
            yield state, events


def _doc(state, events, seat):
    return seatjson.seat_report(state, events, game_id="g1", step=state.step, seat=seat, headline="east played")


def test_every_seats_document_validates_against_the_schema(pack, validator) -> None:
    kinds: set[str] = set()
    docs = 0
    for state, events in _games(pack, games=2, decisions=150):
        for seat in rules.SEATS[docs % 4:docs % 4 + 1]:  # one seat a step, in turn (a validator is slow)
            doc = _doc(state, events, seat)
            errors = [f"{e.json_path}: {e.message[:160]}" for e in validator.iter_errors(doc)]
            assert not errors, errors[:5]
            assert json.loads(seatjson.encode(doc)) == doc  # JSON-safe as it is
            kinds.update(e["kind"] for e in doc["events"])
            docs += 1
    assert docs > 100 and len(kinds) > 20  # the games reached many event kinds


def test_an_event_with_an_undeclared_field_fails_the_schema(pack, validator) -> None:
    state, events = rules.new_game(pack, b"json-bad")
    doc = _doc(state, events, "east")
    assert not list(validator.iter_errors(doc))
    doc["events"][0]["data"]["secret_note"] = 1
    assert list(validator.iter_errors(doc))
    doc = _doc(state, events, "east")
    doc["view"].pop("vp")
    assert list(validator.iter_errors(doc))


def test_the_document_holds_nothing_the_seats_view_hides(pack) -> None:
    """Whatever the hidden cards, the other seats' standing orders and the seed, the
    seat's document is the same: it depends on the seat's view only. And it carries no
    event another seat or only the judge may read."""
    checked = 0
    for state, events in _games(pack, games=2, decisions=80):
        for seat in rules.SEATS:
            doc = _doc(state, events, seat)
            assert all(e["public"] or e["data"].get("seat") == seat for e in doc["events"])
            assert doc["view"]["private"]["seat"] == seat
            hidden = redeal(seat_view(state, seat), seat, random.Random(checked))
            assert _doc(hidden, events, seat)["view"] == doc["view"]
            assert [w["options"] for w in _doc(hidden, events, seat)["waiting"]] == \
                [w["options"] for w in doc["waiting"]]
            checked += 1
    assert checked > 250


def test_the_documented_schema_is_the_one_the_judge_writes() -> None:
    made = json.dumps(seatjson.schema(), indent=2, sort_keys=True) + "\n"
    assert DOCS.read_text(encoding="utf-8") == made, (
        "docs/seat-report.schema.json is stale: python -c 'import json; from pbem.report import seatjson; "
        "print(json.dumps(seatjson.schema(), indent=2, sort_keys=True))' > docs/seat-report.schema.json")

"""No raw pack id reaches a player (issue 13): names shown to players come from the
pack's printed names (:func:`pbem.rules.core.names.printed_name` and its kin).

Over random bot games (real pack, reaction windows and units inside in some games) every
step renders the report for every seat and the public one, the prompt of the pending
decision, the receipt of the bot's orders (as the service writes it), and the rejections
of orders made wrong on purpose: the fuzz tests' templates and mutations, and values
swapped for other ids of the pack (another seat's general, a space across the map, a
fleet, a royal). A pack id (``greek_army``, ``syrian_gates``, ``pelusium``) anywhere in
that text fails, except where the player's own words are quoted back (the ``where:``
field path, a quoted ``'value'`` the player wrote, the echoed orders block).

Most rejection codes of :data:`pbem.problems.CODES` that the rules core raises are
reached here (about 98 of 126 with the defaults; more with more games); each code is
also rendered on its own, so the catalogue's words are checked too. Tune with ``PBEM_RAWID_GAMES`` and
``PBEM_RAWID_STEPS``.
"""
from __future__ import annotations

import copy
import os
import random
import re
from typing import Any

import pytest

from pbem import rules
from pbem.pack.loader import load_pack
from pbem.problems import CODES, grouped, problem
from pbem.report import build, orders_text
from pbem.rules.dice import Dice
from tests.rules.test_orders_fuzz import mutate, template

GAMES = int(os.environ.get("PBEM_RAWID_GAMES", "6"))
STEPS = int(os.environ.get("PBEM_RAWID_STEPS", "40"))
TRIES = 6
SEATS_ROWS = [{"seat": s, "player": f"Player {s.title()}", "email": f"{s}@x.test"} for s in rules.SEATS]
TABLES = ("spaces", "generals", "royals", "independent_armies", "fleets", "special_units", "provinces")

#: codes random positions and mutations cannot reach, and why
NOT_REACHED = {
    "rules.pack_incomplete": "only a pack without a number the rule needs raises it",
    "game.over": "needs a finished game; its message names no id",
}


#: pack ids that are also English words of our own sentences ("bury the body")
ENGLISH = {"body"}


@pytest.fixture(scope="module")
def pack():
    return load_pack()


@pytest.fixture(scope="module")
def raw_id(pack) -> re.Pattern[str]:
    ids = {k for t in TABLES for k, v in getattr(pack, t).items() if k != v.name} - ENGLISH
    return re.compile(r"(?<![\w'’])(" + "|".join(sorted(ids, key=len, reverse=True)) + r")(?![\w'’])")


def _scan(text: str, raw_id: re.Pattern[str], where: str) -> None:
    for line in text.splitlines():
        if line.strip().startswith(("where:", "code:")):
            continue  # the field path into the player's own orders, the code
        assert "docs/" not in line and "repository" not in line, \
            f"{where}: points to a file players do not have: {line.strip()}"  # issue 13
        line = re.sub(r"'[^']*'|\"[^\"]*\"", "", line)  # what the player wrote, quoted back
        m = raw_id.search(line)
        assert m is None, f"{where}: raw id {m.group(0)!r} in: {line.strip()}"


def _swap_ids(orders: Any, pack, rng: random.Random) -> Any:
    """``orders`` with one string value replaced by another id of the pack."""
    o = copy.deepcopy(orders)
    slots: list[tuple[Any, Any]] = []

    def walk(x: Any) -> None:
        items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
        for k, v in items:
            if isinstance(v, str):
                slots.append((x, k))
            walk(v)
    walk(o)
    if not slots:
        return o
    parent, key = rng.choice(slots)
    table = getattr(pack, rng.choice(("spaces", "spaces", "generals", "royals", "fleets", "provinces")))
    parent[key] = rng.choice(sorted(table))
    return o


def _targeted(state, seat: str, kind: str, rng: random.Random, pack) -> list[tuple[str, Any]]:
    """(seat, orders) pairs aimed at the deeper checks: every use of a card of the hand,
    too many places, too many OPs, surprise cards in the wrong field, another seat."""
    hand = list(state.private.get(seat, {}).get("hand", []))
    other = rng.choice([x for x in rules.SEATS if x != seat])
    spaces = sorted(pack.spaces)
    out: list[tuple[str, Any]] = [(other, {"tyche": {"card": 1, "use": "discard"}}), ("nobody", {})]
    if kind == "player_turn" and hand:
        card = rng.choice(hand)
        for use in ("garrisons", "discard", "event", "activate", "train", "upgrade_fleet"):
            out.append((seat, {"tyche": {"card": card, "use": use, "places": rng.sample(spaces, 6),
                                         "train": [{"unit": "phalangite", "ops": 9}], "fleet": "athenian_fleet"}}))
        out.append((seat, {"tyche": {"card": card, "use": "event"}}))
        out.append((seat, {"tyche": {"card": card, "use": "garrisons", "surprise_discards": [card],
                                     "discard_drawn_surprises": "yes", "places": [spaces[0], spaces[0]]}}))
        out.append((seat, {"tyche": {"card": card, "use": "train", "train": [{"unit": "auxiliary", "ops": 1}] * 3}}))
        out.append((seat, {"tyche": {"card": card, "use": "event", "general": rng.choice(sorted(pack.generals)),
                                     "royal": rng.choice(sorted(pack.royals)), "player": other,
                                     "army": rng.choice(sorted(pack.generals))},
                           "bury": rng.choice([True, "pella", 3]), "heir": rng.choice(sorted(pack.royals)),
                           "surrender": {"remove": [rng.choice(spaces)]},
                           "movement": [{"army": rng.choice(sorted(pack.generals)), "path": [rng.choice(spaces)],
                                         "assault": 9}]}))
        armies = [a["space"] for a in rules.legal_options(state, seat).get("armies") or []]
        if armies:  # an escort of fleets that are not the mover's
            out.append((seat, {"tyche": {"card": card, "use": "discard"},
                               "movement": [{"army": armies[0], "path": [armies[0]],
                                             "escort": sorted(pack.fleets)}]}))
        out.append((seat, {"tyche": {"card": card, "use": "discard"},
                           "standing": [{"when": "avoid", "army": rng.choice(sorted(pack.generals)),
                                         "toward": [1]}, {"when": "losses"},
                                        {"when": "free_passage", "to": [seat],
                                         "royal": [rng.choice(sorted(pack.royals))]}],
                           "commanders": {rng.choice(spaces): rng.choice(sorted(pack.generals))},
                           "inside": {rng.choice(spaces): {"loyal": 9}}}))
        general, space = rng.choice(sorted(pack.generals)), pack.spaces[spaces[0]]
        out.append((seat, {"tyche": {"card": card, "use": "discard"},  # one space named twice
                           "commanders": {space.name: general, space.name.upper(): general},
                           "standing": [{"when": "avoid", "army": general, "toward": spaces[:2]},
                                        {"when": "losses", "if_losses": "many"}],
                           "inside": {space.name: {"war_elephants_xx": 1}, space.name.upper(): {"loyal": 1}}}))
        out.append((seat, {"tyche": {"card": card, "use": "discard"},  # a drop that is not a mapping
                           "movement": [{"army": general, "path": spaces[2:4], "drop": ["cus"]}]}))
    elif kind != "player_turn":
        out.append((seat, {kind: rng.choice(["maybe", {"toward": rng.choice(spaces)}, {"fleets": ["x"]},
                                              {"army": rng.choice(sorted(pack.generals))}])}))
    return out


def _rejections(state, seat: str, kind: str, bot: dict, rng: random.Random, pack) -> list[list]:
    out = []
    base = [bot, template(state.to_dict(), seat, kind, rng)]
    tries = [(seat, _swap_ids(rng.choice(base), pack, rng) if rng.random() < 0.6 else mutate(rng.choice(base), rng))
             for _ in range(TRIES)]
    for who, o in tries + _targeted(state, seat, kind, rng, pack):
        problems = rules.validate(state, who, o)
        if problems:
            out.append(problems)
    return out


def test_no_raw_id_reaches_a_player(pack, raw_id) -> None:
    seen: set[str] = set()
    kinds: set[str] = set()
    rendered = 0
    for game in range(GAMES):
        seed = f"rawid-{game}".encode()
        rng = random.Random(game)
        state, events = rules.new_game(pack, seed, {"ask_windows": game % 2 == 0, "bot_inside": game % 3 != 2})
        for _ in range(STEPS):
            kinds |= {e.kind for e in events if e.public}
            for seat in (*rules.SEATS, None):
                rep = build.render_report(pack, state, events, game_id="g", step=state.step, seat=seat,
                                          seats=SEATS_ROWS, headline="h", seed_commitment="0" * 64)
                _scan(rep.text, raw_id, f"report for {seat}, step {state.step}")
                _scan(re.sub(r"<[^>]+>", " ", rep.html.split("</head>")[-1]), raw_id, f"HTML report for {seat}")
            pending = rules.pending(state)
            if not pending:
                break
            d = pending[0]
            text, html = build.render_prompt(pack, state, d, game_id="g", seat_row=SEATS_ROWS[0],
                                             deadline="2029-01-01 00:00 UTC", seats=SEATS_ROWS)
            _scan(text, raw_id, f"prompt of {d.seat}")
            _scan(re.sub(r"<[^>]+>", " ", html.split("</head>")[-1]), raw_id, f"HTML prompt of {d.seat}")
            bot = rules.bot_orders(state, d.seat, rng)
            hand = list(state.private.get(d.seat, {}).get("hand", []))
            receipt = build.render_receipt("g", state.step, d.seat, orders_text.orders_yaml(pack, bot, hand),
                                           "0" * 64)
            _scan(receipt, raw_id, f"receipt of {bot}")
            for problems in _rejections(state, d.seat, d.kind, bot, rng, pack):
                seen |= {p.code for p in problems}
                text = build.render_rejection("orders", [p.to_dict() for p in grouped(problems)], "g", None)
                _scan(text, raw_id, f"rejection {[p.code for p in problems]}")
                rendered += 1
            state, events = rules.apply(state, d.seat, bot, Dice(seed, state.step))
    assert rendered > GAMES * 10
    assert "SurprisePlayed" in kinds  # the surprise cards' sentences were rendered too (R-8.5)
    rules_codes = {c for c, entry in CODES.items() if entry.rule is not None}
    missing = rules_codes - seen - set(NOT_REACHED)
    assert len(missing) <= len(rules_codes) // 4, sorted(missing)  # about 98 of 126 are reached


def test_every_code_renders_without_a_raw_id(raw_id) -> None:
    for code, entry in CODES.items():
        text = build.render_rejection("orders", [problem(code, entry.summary).to_dict()], "g", None)
        _scan(text, raw_id, code)


#: the events of the surprise cards (R-8.5) with data as the rules core writes it
SURPRISE_EVENTS = (
    ("SurprisePlayed", {"seat": "north", "card": 48, "name": "x", "moment": "battle_roll", "source": "standing",
                        "space": "pelusium", "rule": "R-8.5"}),
    ("PrestigeRaised", {"seat": "north", "card": 50, "general": "ptolemy", "amount": 1, "space": "memphis"}),
    ("PrestigeBonusEnded", {"generals": ["ptolemy", "antigonus"]}),
    ("BattleDiceRerolled", {"seat": "east", "card": 51, "space": "gaza", "before": [1, 2], "dice": [5, 6],
                            "roll": 11, "score": 3}),
    ("NavalMoveCancelled", {"seat": "west", "card": 49, "mover": "south", "space": "sidon", "port": "pelusium"}),
    ("MovementBonusGained", {"seat": "south", "card": 27, "space": "babylon", "mp": 2, "allowance": 6}),
)


@pytest.mark.parametrize(("kind", "data"), SURPRISE_EVENTS, ids=[k for k, _ in SURPRISE_EVENTS])
def test_surprise_event_sentences_name_no_raw_id(pack, raw_id, kind: str, data: dict) -> None:
    """The surprise cards' events (merged from main) read in printed names: cards by
    number and name, generals and spaces by their printed names (R-8.5)."""
    from pbem.rules.core.events import sentence

    text = sentence(pack, kind, data)
    _scan(text, raw_id, kind)
    assert "#" in text or kind == "PrestigeBonusEnded", text

"""The machine-readable report (issue 29, item 6): a seat's own view of the game as
JSON, attached to its turn reports when the seat asks for it (``command: preferences``
with ``json: on``), so players' own tools — a spreadsheet, a map viewer, a bot of their
own — read the game without scraping the text, as Eressea's and Atlantis' players do with
their computer reports.

One document per report (format ``pbem-seat-report``, :data:`VERSION`):

- ``game``, ``step`` (the report's step), ``seat``, ``headline``;
- ``view``: :func:`pbem.rules.view` of the seat — the public state and the seat's own
  ``private`` part (hand, training, standing orders, the legal options), nothing another
  seat keeps to itself;
- ``events``: the events of the step the seat may read (public ones and its own private
  ones, :func:`pbem.report.context.visible_events`), each ``{"kind", "data", "public"}``
  with the fields the rules core's event catalogue declares for its kind;
- ``waiting``: the decisions the game waits for from the seat after the step (``kind``,
  ``step`` to quote, ``rule``, ``options``, ``default``: what the deadline plays). The
  deadline is not in it: a decision's deadline starts when its prompt is queued, just
  after the report, and the prompt mail says it (docs/seat-report.md).

:func:`schema` gives the JSON Schema (draft 2020-12) of the document, the events' part
made from the event catalogue, so the schema cannot lag a new event kind; the copy
players read is docs/seat-report.schema.json (a test keeps it equal to :func:`schema`).
A new version is made when a key changes meaning or goes away; new keys and new event
kinds keep the version (a tool should ignore what it does not know).
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pbem import rules
from pbem.report import context
from pbem.rules.core.events import CATALOGUE

FORMAT = "pbem-seat-report"
"""The document's ``format``: what a tool checks before reading it."""
VERSION = 1
"""The document's ``version`` (see the module docstring for when it changes)."""
SCHEMA_ID = f"https://pbem.invalid/schema/{FORMAT}-{VERSION}.json"
"""The schema's ``$id`` (a name, not a place to fetch it from: the schema ships in docs/)."""


def seat_report(state: rules.GameState, events: Sequence[rules.Event], *, game_id: str, step: int, seat: str,
                headline: str) -> dict[str, Any]:
    """The machine-readable report of ``events`` (the state after them) for ``seat``:
    a JSON-safe dict as the module docstring describes. Nothing in it
    comes from another seat's private part or the judge's secrets: the view is the
    seat's (R-3.2; :func:`pbem.rules.view`) and the events are those it may read."""
    waiting = [{"kind": d.kind, "step": d.step, "rule": d.rule, "options": d.to_dict()["options"],
                "default": d.to_dict()["default"]}
               for d in rules.pending(state) if d.seat == seat]
    return {"format": FORMAT, "version": VERSION, "game": game_id, "step": step, "seat": seat,
            "headline": headline, "view": rules.view(state, seat),
            "events": [{"kind": e.kind, "data": dict(e.data), "public": e.public}
                       for e in context.visible_events(events, seat)],
            "waiting": waiting}


def encode(document: Mapping[str, Any]) -> bytes:
    """``document`` as UTF-8 JSON (keys sorted, two-space indent, a final newline), the
    bytes attached to the mail."""
    return (json.dumps(document, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode("utf-8")


def _event_schema(name: str) -> dict[str, Any]:
    """``if`` an event's kind is ``name``, ``then`` its data carries the fields the
    catalogue declares for the kind and no others (if/then, not oneOf: a validator then
    checks one kind per event, not all of them)."""
    kind = CATALOGUE[name]
    return {"if": {"properties": {"kind": {"const": name}}},
            "then": {"properties": {"data": {
                "required": list(kind.fields), "additionalProperties": False,
                "properties": {f: {} for f in (*kind.fields, *kind.optional)}}}}}


_SEATS = {"enum": list(rules.SEATS)}
_SEAT_MAP = {"type": "object", "propertyNames": _SEATS}
_TERMS = {"type": "object", "propertyNames": _SEATS, "additionalProperties": {
    "type": "array", "items": {"type": "object", "required": ["kind", "what", "value", "rule"],
                               "properties": {"kind": {"type": "string"}, "what": {"type": ["string", "integer", "null"]},
                                              "value": {"type": "integer"}, "rule": {"type": "string"}}}}}
_VIEW_KEYS: dict[str, Any] = {
    "pack": {"type": "string"}, "turn": {"type": "integer"}, "year_bc": {"type": ["integer", "null"]},
    "round": {"type": ["integer", "null"]}, "step": {"type": "integer"}, "phase": {"type": "string"},
    "active": {"type": ["string", "null"]}, "turn_order": {"type": "array", "items": _SEATS},
    "usurpers": {"type": "array"}, "champions": {"type": ["object", "array"]},
    "vp": {**_SEAT_MAP, "additionalProperties": {"type": "integer"}},
    "lp": {**_SEAT_MAP, "additionalProperties": {"type": "integer", "minimum": 0}},
    "vp_terms": _TERMS, "lp_terms": _TERMS,
    "provinces": {"type": "object", "additionalProperties": {"anyOf": [_SEATS, {"type": "null"}]}},
    "fleets": {"type": "object", "additionalProperties": {
        "type": "object", "required": ["home", "seat", "strength", "dispersed"]}},
    "garrisons": {"type": "object", "additionalProperties": _SEATS},
    "independent": {"type": "array", "items": {"type": "string"}},
    "armies": {"type": "array", "items": {
        "type": "object", "required": ["space", "seat", "commander", "generals", "minor", "cus"],
        "properties": {"space": {"type": "string"}, "seat": _SEATS, "generals": {"type": "array"},
                       "minor": {"type": "boolean"},
                       "cus": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}}}},
    "dispersed": {"type": "object"}, "generals": {"type": "object"}, "royals": {"type": "object"},
    "independent_armies": {}, "discards": {"type": "array"}, "removed": {},
    "hand_sizes": {**_SEAT_MAP, "additionalProperties": {"type": "integer", "minimum": 0}},
    "deck_size": {"type": "integer", "minimum": 0}, "claim": {}, "result": {}, "primary": {},
    "sieges": {"type": "object"}, "inside": {"type": "object"}, "court": {"type": "object"},
    "reaction_window": {"type": ["object", "null"]},
}
_PRIVATE = {"type": "object", "required": ["seat", "hand", "options"],
            "properties": {"seat": _SEATS, "hand": {"type": "array"}, "training": {"type": "array"},
                           "standing": {}, "options": {"type": "object"}}}


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a :func:`seat_report` document: the
    envelope, the view's keys (those :func:`pbem.rules.view` documents, others allowed:
    new keys keep the version) and one shape per event kind of the catalogue (its
    declared fields, required and optional, and no others)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
        "title": "pbem seat report", "type": "object",
        "required": ["format", "version", "game", "step", "seat", "headline", "view", "events", "waiting"],
        "properties": {
            "format": {"const": FORMAT}, "version": {"const": VERSION},
            "game": {"type": "string"}, "step": {"type": "integer", "minimum": 0}, "seat": _SEATS,
            "headline": {"type": "string"},
            "view": {"type": "object", "required": [*_VIEW_KEYS, "private"],
                     "properties": {**_VIEW_KEYS, "private": _PRIVATE, "special_units": {"type": "object"}}},
            "events": {"type": "array", "items": {
                "type": "object", "required": ["kind", "data", "public"], "additionalProperties": False,
                "properties": {"kind": {"enum": sorted(CATALOGUE)}, "data": {"type": "object"},
                               "public": {"type": "boolean"}},
                "allOf": [_event_schema(n) for n in sorted(CATALOGUE)]}},
            "waiting": {"type": "array", "items": {
                "type": "object", "required": ["kind", "step", "rule", "options", "default"],
                "additionalProperties": False,
                "properties": {"kind": {"type": "string"}, "step": {"type": "integer"}, "rule": {"type": "string"},
                               "options": {"type": "object"}, "default": {"type": "object"}}}},
        },
    }


__all__ = ["FORMAT", "SCHEMA_ID", "VERSION", "encode", "schema", "seat_report"]

"""Orders as the judge read them, in the pack's printed names (issue 13): the receipt
echoes ``card: 13  # #13 Condemnation (3 OPs)`` and ``path: [Pelusium, Gaza]`` whatever
the player wrote (``card: condemnation``, ``path: [pelusium, gaza]``).

Only values under the fields that name a thing of the pack are translated (the table
:data:`FIELDS`); everything else (uses, seats, CU types, numbers) is shown as written.
A value the pack does not know is left as it is (it was accepted, so it is something
the rules read in another way: a seat, ``none``, ``side``).
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from pbem.mail.body import WIDTH
from pbem.pack import names as pack_names
from pbem.pack.model import Pack
from pbem.rules.core.names import ENGLISH, Words, card_label, printed_name

FIELDS = frozenset({
    "path", "places", "place", "mercenary", "accept", "remove", "decline", "assault", "markers", "toward",
    "city", "space", "at", "outside", "army", "target", "general", "royal", "heir", "fleet", "escort",
    "fleets", "unrest", "generals", "royals", "bury"})
"""Order fields whose string values are ids or names of the pack (spaces, generals,
royals, fleets, provinces); ``inside`` and ``commanders`` have spaces as keys."""

CARD_FIELDS = frozenset({"card", "surprise_discards"})


def _card(value: Any, hand: Sequence[int], pack: Pack) -> Any:
    """A card given by number or name, as its number (the hand decides between cards
    of one name); unknown values as written."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip().lstrip("#")
        if text.isdecimal() and len(text) < 6:
            return int(text)
        for n in hand:  # by its name in any of the pack's languages (issue 28)
            if n in pack.cards and pack_names.fold(value) in pack_names.names_of(pack, "cards", n):
                return n
    return value


def _named(value: Any, pack: Pack) -> Any:
    return printed_name(pack, value) if isinstance(value, str) else value


def normal_orders(pack: Pack, orders: Any, hand: Sequence[int] = (), field: str | None = None,
                  parent: str | None = None) -> Any:
    """``orders`` (plain YAML data) with cards as numbers and the pack's ids or names
    under :data:`FIELDS` as printed names (``"pelusium"`` -> ``"Pelusium"``); mappings
    keyed by space (``inside``, ``commanders``) get printed keys. Never raises."""
    if isinstance(orders, Mapping):
        keyed = field in ("inside", "commanders")
        out = {}
        for k, v in orders.items():
            key = _named(k, pack) if keyed else k
            if isinstance(k, str) and k in pack.special_units:
                key = pack.special_units[k].name  # a special unit among CU types
            out[key] = normal_orders(pack, v, hand, str(k) if not keyed else field, field)
        return out
    if isinstance(orders, list):
        return [normal_orders(pack, v, hand, field, parent) for v in orders]
    if field in CARD_FIELDS:
        return _card(orders, hand, pack)
    if field in FIELDS or (parent == "commanders"):
        return _named(orders, pack)
    return orders


def orders_yaml(pack: Pack, orders: Mapping[str, Any], hand: Sequence[int] = (), labels_pack: Pack | None = None,
                tr: Words = ENGLISH) -> str:
    """The receipt's YAML of ``orders`` (:func:`normal_orders`), each line naming a
    card (``card: 13``, ``surprise_discards: [49]``) ending with the cards' printed
    labels as a YAML comment (``tyche: {card: 13, use: event}  # #13 Condemnation (3
    OPs)``), so it still reads back as the same orders. The YAML is canonical (English
    names, as orders write them); the comments name the cards from ``labels_pack`` (the
    reader's language, :func:`pbem.pack.names.localized`; ``pack`` when None) with the
    OPs in the language of ``tr`` (issue 28)."""
    text = yaml.safe_dump({"orders": normal_orders(pack, dict(orders), hand)}, sort_keys=False,
                          allow_unicode=True, default_flow_style=None, width=WIDTH)
    out = []
    for line in text.splitlines():
        numbers = [int(n) for n in _CARD.findall(line)]
        for group in _SURPRISES.findall(line):
            numbers += [int(n) for n in re.findall(r"\d+", group)]
        labels = [card_label(labels_pack or pack, n, tr) for n in numbers if n in pack.cards]
        out.append(f"{line}  # {'; '.join(labels)}" if labels else line)
    return "\n".join(out) + "\n"


_CARD = re.compile(r"(?<![\w])card: (\d+)\b")
_SURPRISES = re.compile(r"surprise_discards: \[([\d, ]+)\]")

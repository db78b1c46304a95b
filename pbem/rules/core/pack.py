"""Access to the data pack: its ``constants`` and its charts (every printed number lives
in the pack).

:func:`const` reads one key and raises :class:`MissingConstant` (a ``KeyError``) naming
the key, the rule that needs it and the file it belongs in, so a pack editor sees at once
what is missing. :data:`KEYS` lists every key the rules core reads.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pbem.pack.model import Chart, Pack

T = TypeVar("T")


def per_pack(table: dict[int, tuple[Pack, T]], pack: Pack, build: Callable[[Pack], T]) -> T:
    """``build(pack)``, made once per pack object and kept in ``table`` by the pack's id
    (the pack kept beside its value, so an id reused by another pack is told apart): for
    values that read only the pack, which never changes once loaded (tables derived from
    the map, memos of answers that read only the pack)."""
    hit = table.get(id(pack))
    if hit is not None and hit[0] is pack:
        return hit[1]
    got = build(pack)
    table[id(pack)] = (pack, got)
    return got

KEYS: dict[str, str] = {
    "hand_size": "R-6.4 Tyche cards dealt to each player per turn (5)",
    "garrison_range_mps": "R-8.3 garrisons go within this many MPs of a friendly CU/garrison (2)",
    "path_mp_cost": "R-9.1 MP cost per path kind, e.g. {land: 1, mountain_strait: 2, sea: 1}",
    "movement_mercenary_cus": "R-8.7 mercenary CUs raised instead of moving (1)",
    "reinforcement_mercenaries": "R-7.1 mercenary CUs every player receives (2)",
    "reinforcement_macedonia_bonus": "R-7.1 loyal CUs to whoever controls Macedonia (1)",
    "reinforcement_lp_bonus": "R-7.1 loyal CUs to the single player with most LP (1)",
    "reinforcement_vp_bonus": "R-7.1 mercenary CUs to the single player with most VP (2)",
    "reinforcement_vp_tie_bonus": "R-7.1 mercenary CUs to each player tied for most VP (1)",
    "reinforcement_per_province": "R-7.2 CUs placed per space (seed 003) or per province (the rulebook's option) where a limit applies (2)",
    "training_phalangite_ops": "R-8.4 OPs to train a phalangite (7)",
    "training_phalangite_min_segments": "R-8.4 Tyche segments a phalangite takes at least (2)",
    "training_auxiliary_ops": "R-8.4 OPs to train an auxiliary (3)",
    "training_cards_per_turn": "R-8.4 cards a player may use for training per turn (2)",
    "training_units_max": "R-8.4 CUs a player may have in training at once (2)",
    "minor_generals": "R-5 minor generals per player (4)",
    "champion_lp": "R-11.1 LP of a Champion (3)",
    "strategos_lp": "R-11.1 LP for controlling Macedonia (Strategos of Europe) (2)",
    "macedonia_province": "R-7.1/R-11.1/R-1.2 id of the province Macedonia",
    "auto_victory_vp": "R-1.1 VP for an automatic victory (23)",
    "auto_victory_lp": "R-1.1 LP for an automatic victory (18)",
    "auto_victory_from_turn": "R-1.1 first turn an automatic victory counts (2)",
    "lord_of_asia_provinces": "R-1.4 provinces that make the Lord of Asia",
    "lord_of_asia_vp": "R-1.4 VP of the Lord of Asia (4)",
    "hellespont_vp": "R-1.4 VP for holding all Hellespont ports (2)",
    "strongest_fleet_vp": "R-1.4 VP for the strongest fleet (3)",
    "strongest_fleet_min_strength": "R-1.4 fleet strength needed for that VP (3)",
    "fleet_upgrade_card_ops": "R-8.2 OPs of a card that may upgrade a fleet (4)",
    "fleet_upgrade_step": "R-8.2 strength a fleet upgrade adds (1)",
    "regency_turn_alexander_iv": "R-1.3 turn Alexander IV comes of age (4)",
    "regency_turn_heracles": "R-1.3 turn Heracles comes of age (5)",
    "body_lost_turn": "R-12.4 turn the unburied body is removed at the start of (4)",
    "cart_ready_turn": "R-12.4 first turn the funeral cart may move and be buried (2)",
    "burial_pella_space": "R-12.4 id of the space where the burial gives the burial LP (pella)",
    "burial_pella_lp": "R-11.1/R-12.4 LP for good to the faction burying the body in Pella (10)",
    "tomb_guardian_lp": "R-11.1/R-12.4 LP to whoever controls the city of a tomb elsewhere (2)",
    "holy_ground_prestige": "R-11.2 prestige of a defender holding the body or the tomb (4)",
}


class MissingConstant(KeyError):
    """The data pack lacks a constant the rules core needs."""


def const(pack: Pack, key: str) -> Any:
    """Return ``pack.constants[key]``.

    Raises :class:`MissingConstant` with the key, its meaning (from :data:`KEYS`) and
    where to add it (``pbem/data/<pack>/constants.yaml``) when the pack lacks it.
    """
    try:
        return pack.constants[key]
    except KeyError:
        what = KEYS.get(key, "used by the rules core")
        raise MissingConstant(
            f"data pack {pack.name!r} has no constant {key!r} ({what}); "
            f"add it to constants.yaml") from None


def chart_dice(pack: Pack, chart_id: str) -> tuple[int, int]:
    """``(count, sides)`` of the dice a chart is read with, from its printed ``dice`` field
    (``"2d6"`` → ``(2, 6)``). Raises MissingConstant for an unknown chart or a chart read
    without dice."""
    chart = pack.charts.get(chart_id)
    text = str(getattr(chart, "dice", "")).strip().lower()
    count, _, sides = text.partition("d")
    if chart is None or not count.isdigit() or not sides.isdigit():
        raise MissingConstant(f"data pack {pack.name!r} has no dice for chart {chart_id!r} "
                              "(charts.yaml: `dice: 2d6`)")
    return int(count), int(sides)


def chart_read(pack: Pack, chart: str, row: int | str, column: int | str = "result"
               ) -> tuple[Any, dict[str, Any]]:
    """Look ``row``/``column`` up on pack chart ``chart``; returns ``(cell, record)``
    where record is ``{"chart", "row", "column", "result"}`` for the event log.
    Raises KeyError when the pack lacks the chart or the cell."""
    ch = pack.charts[chart]
    cell = ch.lookup(row, column)
    return cell, {"chart": chart, "row": row, "column": column, "result": cell}


def chart_cell(chart: Chart, total: int, column: str = "result") -> Any:
    """The cell of ``chart`` in the row holding ``total`` (rows ``"7"`` or ``"2-4"``,
    ``"12+"``) and ``column``. Raises KeyError naming the chart when no row matches."""
    for row in chart.rows:
        r = str(row)
        if r.endswith("+") and total >= int(r[:-1]):
            return chart.cells[row][column]
        lo, _, hi = r.partition("-")
        if lo.lstrip("-").isdigit() and int(lo) <= total <= int(hi or lo):
            return chart.cells[row][column]
    raise KeyError(f"chart {chart.id!r} has no row for {total}")

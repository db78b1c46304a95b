"""Reading a report's plain text back as a player would (issue 24 item 8): the standings,
the VP and LP sections (every term of each seat's points), the control table and the
"what changed" lines; and the check that a report explains every change of VP, LP and
control since the report before it, and that every table adds up. Shared by the report
tests and the tests through the real mail path."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

SEATS = ("north", "east", "south", "west")
CHANGE = re.compile(r"^(north|east|south|west) ([+-]\d+) (VP|LP) \((\d+) -> (\d+)\): (.*)\.$")
ITEM = re.compile(r" ([+-]\d+) \((R-[\d.]+)\)")
ROW = re.compile(r"^(north|east|south|west) +(\d+)(?: = (.*?))?(?: \(the sum is (-?\d+); LP never go below 0, "
                 r"R-11\.1\))?$")


@dataclass
class Report:
    """What a report's text says: ``standings`` ``{seat: (vp, lp)}``; ``vp``/``lp``
    ``{seat: (total, sum of the terms, [(label, value)])}``; ``control`` ``{province
    (as printed, cut to 22 characters): seat}``; ``changes``: the lines under "CONTROL,
    VP AND LP: WHAT CHANGED", each unwrapped; ``happened``: the numbered lines of "WHAT
    HAPPENED", unwrapped; ``status`` ``{seat: {"Champion", "Usurper"}}`` from the
    standings; ``fleets`` ``{fleet: (home, strength, owner or "nobody")}`` and
    ``fleet_totals`` ``{seat: strength}``, ``strongest`` (the seat named, or None) from
    the FLEETS table."""

    text: str
    standings: dict[str, tuple[int, int]] = field(default_factory=dict)
    vp: dict[str, tuple[int, int, list[tuple[str, int]]]] = field(default_factory=dict)
    lp: dict[str, tuple[int, int, list[tuple[str, int]]]] = field(default_factory=dict)
    control: dict[str, str] = field(default_factory=dict)
    changes: list[str] = field(default_factory=list)
    happened: list[str] = field(default_factory=list)
    status: dict[str, set[str]] = field(default_factory=dict)
    fleets: dict[str, tuple[str, int, str]] = field(default_factory=dict)
    fleet_totals: dict[str, int] = field(default_factory=dict)
    strongest: str | None = None


def _section(lines: list[str], title: str) -> list[str]:
    """The lines after the heading that starts with ``title`` up to the next blank line."""
    start = next((i for i, ln in enumerate(lines) if ln.startswith(title)), None)
    if start is None:
        return []
    out = []
    for ln in lines[start + 1:]:
        if not ln.strip():
            break
        out.append(ln)
    return out


def _unwrap(lines: list[str], first: re.Pattern[str]) -> list[str]:
    """Lines whose continuations are indented deeper, each joined to one line."""
    out: list[str] = []
    for ln in lines:
        if first.match(ln) or not out:
            out.append(ln.strip())
        else:
            out[-1] += " " + ln.strip()
    return out


def _terms(text: str | None) -> list[tuple[str, int]]:
    if not text:
        return []
    out = []
    for part in text.split(" + "):
        label, _, value = part.rpartition(" ")
        out.append((label, int(value)))
    return out


def parse(text: str) -> Report:
    """Read a report's text (raises AssertionError when a section reads otherwise)."""
    lines = text.splitlines()
    rep = Report(text)
    head = next(i for i, ln in enumerate(lines) if ln.startswith("Seat   Player"))
    for ln in lines[head + 1:head + 5]:
        rep.standings[ln[:6].strip()] = (int(ln[20:23]), int(ln[24:27]))
        rep.status[ln[:6].strip()] = {w.strip() for w in ln[34:].split(",")} - {"-", ""}
    for key, title in (("vp", "VICTORY POINTS"), ("lp", "LEGITIMACY POINTS")):
        rows = _unwrap(_section(lines, title), re.compile(r"^  \S"))
        assert [r.split()[0] for r in rows] == list(SEATS), (title, rows)
        for r in rows:
            m = ROW.match(r)
            assert m, r
            total = int(m.group(2))
            terms = _terms(m.group(3))
            getattr(rep, key)[m.group(1)] = (total, int(m.group(4)) if m.group(4) else total, terms)
    for ln in _section(lines, "CONTROL (R-3.2)"):
        m = re.match(r"^  (.{22}) +(\d+) VP  (\w+)$", ln)
        if m:
            rep.control[m.group(1).strip()] = m.group(3)
    fleet_lines = _section(lines, "FLEETS (R-15")
    for ln in fleet_lines:
        m = re.match(r"^  (.{20}) (.{16}) +(\d+)  (\w+)", ln)
        if m:
            rep.fleets[m.group(1).strip()] = (m.group(2).strip(), int(m.group(3)), m.group(4))
    tail = " ".join(x.strip() for x in fleet_lines if not re.match(r"^  .{20} .{16} +\d+  ", x))
    m = re.search(r"Strength: (.*?)[.;]", tail)
    if m:
        rep.fleet_totals = {k: int(v) for k, v in (p.split() for p in m.group(1).split(", "))}
    m = re.search(r"strongest: (\w+)", tail)
    rep.strongest = m.group(1) if m and m.group(1) in SEATS else None
    rep.changes = _unwrap(_section(lines, "CONTROL, VP AND LP: WHAT CHANGED"), re.compile(r"^  - "))
    rep.changes = [c.removeprefix("- ") for c in rep.changes]
    rep.happened = [re.sub(r"^\d+\. ", "", x) for x in
                    _unwrap(_section(lines, "WHAT HAPPENED"), re.compile(r"^ *\d+\. "))]
    return rep


def check_adds_up(rep: Report) -> None:
    """Every table sums: each seat's VP and LP are the sum of the terms shown (LP never
    below 0, said so), and the standings show those totals."""
    for seat in SEATS:
        for key, floor in (("vp", False), ("lp", True)):
            total, raw, terms = getattr(rep, key)[seat]
            assert sum(v for _, v in terms) == raw, (seat, key, terms, raw)
            assert total == (max(0, raw) if floor else raw), (seat, key, total, raw)
        assert rep.standings[seat] == (rep.vp[seat][0], rep.lp[seat][0]), (seat, rep.standings[seat])
    assert rep.fleets, "the report has a FLEETS table"
    for seat in SEATS:  # the fleets table sums to its totals, and the strongest is the VP term's seat
        assert sum(n for _, n, owner in rep.fleets.values() if owner == seat) == rep.fleet_totals[seat], \
            (seat, rep.fleets, rep.fleet_totals)
        has_term = any(label == "strongest fleet" for label, _ in rep.vp[seat][2])
        assert has_term == (rep.strongest == seat), (seat, rep.strongest, rep.vp[seat])


def check_explained(prev: Report, rep: Report) -> int:
    """Every VP and LP change since ``prev`` (the report before ``rep``) has its line in
    ``rep`` whose items add up to it (the raw sums of the terms, for LP that would go
    below 0), and every province that changed hands has its line. Returns how many
    changes were explained."""
    lines = {(m.group(1), m.group(3)): m for m in (CHANGE.match(c) for c in rep.changes) if m}
    found = 0
    for seat in SEATS:
        for key in ("vp", "lp"):
            old, new = prev.standings[seat][0 if key == "vp" else 1], rep.standings[seat][0 if key == "vp" else 1]
            raw_old, raw_new = getattr(prev, key)[seat][1], getattr(rep, key)[seat][1]
            m = lines.get((seat, key.upper()))
            if old == new and raw_old == raw_new:  # a line only when terms swapped (one lost, one won)
                assert m is None or sum(int(d) for d, _ in ITEM.findall(m.group(6))) == 0, m.group(0)
                continue
            assert m is not None, f"{seat} {key} {old} -> {new} not explained: {rep.changes}"
            assert (int(m.group(4)), int(m.group(5)), int(m.group(2))) == (old, new, new - old), m.group(0)
            items = [int(d) for d, _rule in ITEM.findall(m.group(6))]
            assert items and sum(items) == raw_new - raw_old, m.group(0)
            found += 1
    for prov in set(prev.control) | set(rep.control):
        if prev.control.get(prov) != rep.control.get(prov):
            assert any(c.startswith(prov) and "(R-3.2)" in c for c in rep.changes), (prov, rep.changes)
            found += 1
    for fleet in set(prev.fleets) | set(rep.fleets):
        (_, n0, o0), (_, n1, o1) = prev.fleets[fleet], rep.fleets[fleet]
        if (n0, o0) != (n1, o1):
            assert any(c.startswith(fleet + ":") and "R-15" in c for c in rep.changes), (fleet, rep.changes)
            found += 1
    for seat in SEATS:
        for status in ("Champion", "Usurper"):
            had, has = status in prev.status[seat], status in rep.status[seat]
            if had != has:
                head = f"{seat} is {status}" if has else f"{seat} is no longer {status}"
                assert any(c.startswith((head + ":", head + " again:")) for c in rep.changes), \
                    (head, rep.changes)
                found += 1
    return found

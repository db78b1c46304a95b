"""``pbem data``: check, export and draw a data pack (thin layer over the loader).

- ``pbem data check [DIR]``: validate the built-in pack or a directory; print a summary;
  exit 1 listing every problem.
- ``pbem data export DIR``: write the built-in pack's files into DIR for editing; a game
  config can then point at DIR (the service calls ``load_pack(DIR)``).
- ``pbem data map OUT_PREFIX`` (added to the group by :mod:`pbem.cli`, since drawing is
  the report package's job and the pack package never imports it): write
  ``OUT_PREFIX.svg`` and ``OUT_PREFIX.png``.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from pbem.pack.loader import (
    CONSTANT_ALIASES,
    PACK_FILES,
    PackError,
    builtin_pack_dir,
    load_pack,
    source_counts,
)
from pbem.pack.model import Pack
from pbem.pack.names import CANONICAL, names_file

OPTIONAL_FILES = ("land.geojson", "languages.yaml")
"""Files a pack may hold besides :data:`PACK_FILES`; export also writes each declared
language's ``names.<code>.yaml`` (:mod:`pbem.pack.names`)."""


def summary(pack: Pack) -> str:
    """A few lines describing ``pack``: counts of provinces, spaces by kind, paths by
    kind, cards by type (the Tyche deck without the optional cards, those counted by
    the rule option that admits them, R-1.4) and entries by source (the
    ``reconstructed`` count included)."""

    def fmt(c: Counter[str]) -> str:
        return ", ".join(f"{k} {v}" for k, v in sorted(c.items()))

    spaces = Counter(s.kind for s in pack.spaces.values())
    paths = Counter(p.kind for p in pack.paths)
    cards = Counter(c.type for c in pack.cards.values())
    sources = source_counts(pack)
    n_constants = sum(1 for k in pack.constant_sources if k not in CONSTANT_ALIASES)
    tyche = sum(1 for c in pack.cards.values() if c.type != "primary" and not c.optional)
    optional = Counter(c.optional for c in pack.cards.values() if c.optional)
    lines = [
        f"pack {pack.name}: OK",
        f"provinces: {len(pack.provinces)}",
        (f"spaces: {len(pack.spaces)} ({fmt(spaces)}; ports "
        f"{sum(s.port for s in pack.spaces.values())}, independent "
        f"{sum(s.independent for s in pack.spaces.values())})"),
        f"paths: {len(pack.paths)} ({fmt(paths)})",
        f"cards: {len(pack.cards)} ({fmt(cards)}; Tyche deck {tyche}"
        + (f", optional {fmt(optional)}" if optional else "") + ")",
        (f"generals: {len(pack.generals)}, royals: {len(pack.royals)}, independent armies: "
        f"{len(pack.independent_armies)}, fleets: {len(pack.fleets)}"),
        f"charts: {len(pack.charts)}, turns: {len(pack.turns)}, constants: {n_constants}",
        f"sources: {fmt(sources)} (reconstructed entries: {sources.get('reconstructed', 0)})",
        f"languages: {', '.join(pack.languages)} (every card, space, province and general named in each)",
    ]
    return "\n".join(lines)


@click.group()
def data() -> None:
    """Check, export or draw the game's data pack (map, cards, charts)."""


@data.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
def check(directory: Path | None) -> None:
    """Validate the built-in pack, or the pack in DIRECTORY; exit 1 listing every problem."""
    try:
        pack = load_pack(directory)
    except PackError as exc:
        click.echo(f"{len(exc.problems)} problem(s) in {directory or 'the built-in pack'}:", err=True)
        for p in exc.problems:
            click.echo(f"  {p}", err=True)
        raise SystemExit(1) from None
    click.echo(summary(pack))


@data.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite files that already exist.")
def export(directory: Path, force: bool) -> None:
    """Write the built-in pack's files into DIRECTORY (created if needed) for editing."""
    directory.mkdir(parents=True, exist_ok=True)
    src = builtin_pack_dir()
    names = [*PACK_FILES, *OPTIONAL_FILES,
             *(names_file(code) for code in load_pack().languages if code != CANONICAL)]
    clash = [n for n in names if (directory / n).exists()]
    if clash and not force:
        click.echo(f"{directory}: would overwrite {', '.join(clash)} (use --force)", err=True)
        raise SystemExit(1)
    for name in names:
        node = src / name
        if node.is_file():
            (directory / name).write_bytes(node.read_bytes())
    click.echo(f"wrote {len(names)} files to {directory}; check edits with: pbem data check {directory}")

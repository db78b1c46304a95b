"""Command-line interface: a thin layer over the library (see ARCHITECTURE.md)."""
from __future__ import annotations

import click


@click.group()
@click.version_option(package_name="pbem")
def main() -> None:
    """pbem: play-by-email adjudicator for Successors."""

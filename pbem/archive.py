"""The game archive: a static HTML site of one game, read from the store.

``pbem archive GAME OUT_DIR -c config.yaml`` (:func:`write_archive`) writes::

    OUT_DIR/index.html          the game, its players, every report (step, turn, round)
    OUT_DIR/report-NNNN.html    the public report of step NNNN, its map inline
    OUT_DIR/map-NNNN.svg        the map after step NNNN (moves, battles, sieges marked)
    OUT_DIR/dice.html           the dice ledger: every public DiceRolled event
    OUT_DIR/chain.html          the log's hash chain (seq, kind, prev_hash, hash) + how to verify
    OUT_DIR/log.jsonl           every row of the chain; ``data`` only for public events
                                (every event once the game is over or abandoned)
    OUT_DIR/game.json           the game id, chain and dice versions, seed commitment,
                                status, the log's head, and the seed once the game ended
    OUT_DIR/press.json          the game's press (issue 16), written only once the game
                                is over and only when its ``publish_press`` setting is
                                on; a grey message keeps its sender hidden
    OUT_DIR/pbem_verify.py      the standalone verifier (standard library only):
                                ``python3 pbem_verify.py OUT_DIR --witness HASH@N``
    OUT_DIR/es/, OUT_DIR/ru/    the same pages and maps in each other language a seat
                                of the game reads (issue 28): index.html, report-NNNN.html,
                                map-NNNN.svg, dice.html, chain.html; their links to
                                log.jsonl and the verifier go up to OUT_DIR's

The pages are in English at the top and once more per language of the game's seats
(:func:`archive_languages`), each page linking to its twin in the other languages: one
archive serves every seat, and a seat sent to it opens its own language's folder
(docs/reports.md "Languages"). Only the rendering is translated: log.jsonl, game.json
and the verifier are language-free and written once (issue 28 item 7).

log.jsonl, game.json and pbem_verify.py are byte for byte the files of the log archive
that the seed mail and ``command: archive`` carry (:func:`pbem.service.log.trust.log_archive`).

Everything opens from disk: relative links, no script, no network. Only public
information is written (the public view, public events); the dice seed and the private
events are written only once the game is over or abandoned, so anyone can then
recompute every roll (docs/trust.md).
"""
from __future__ import annotations

import gettext
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem import i18n, rules
from pbem.gamesettings import GameSettings
from pbem.pack.model import Pack
from pbem.pack.names import localized
from pbem.report import context, snapshot
from pbem.report.history import (
    Batch,
    bots_until,
    joined_headlines,
    played_in,
    render_batches,
    step_groups,
)
from pbem.report.render import render
from pbem.service.base.context import game_pack
from pbem.service.commands.host.common import STATUS_WORDS
from pbem.service.commands.seat.press import published
from pbem.service.log.history import batches
from pbem.service.log.trust import ENDED, archive_files
from pbem.service.outgoing import seat_preferences
from pbem.store import Store
from pbem.store.db import GENESIS, canonical_json


@dataclass(frozen=True)
class ArchiveResult:
    """What :func:`write_archive` wrote: the directory, the number of reports, dice
    rolls and log rows, and the file names."""

    out_dir: Path
    reports: int
    rolls: int
    rows: int
    files: tuple[str, ...]


def _page(i: int) -> str:
    return f"report-{i:04d}.html"


def _map(i: int) -> str:
    return f"map-{i:04d}.svg"


def dice_ledger(all_batches: Sequence[Batch], pack: Pack | None = None,
                tr: gettext.NullTranslations | None = None) -> list[dict[str, Any]]:
    """Every public ``DiceRolled`` event in order: ``[{"batch", "step", "n", "dice",
    "values", "total", "purpose", "rule", "extra", "details", "page"}]`` (``n`` numbers
    the rolls within the batch; ``extra`` holds what the roll event itself carries;
    ``details`` what the roll decided, with every term: strengths, ratings, chart row
    and column, :func:`pbem.report.context.roll_details`); with ``pack``, ids read as
    printed names; the purpose and the details in the language of ``tr`` (None:
    English; issue 28)."""
    out = []
    for b in all_batches:
        n = 0
        public = [e for e in b.events if e.public]
        for i, e in enumerate(public):
            if e.kind == "DiceRolled":
                info = context.roll_info(e, pack)
                if tr is not None:
                    info["purpose"] = context.purpose_words(str(info["purpose"]), tr)
                details = context.roll_details(pack, public, i, tr) if pack is not None else ""
                out.append({"batch": b.index, "step": b.step, "n": n, "page": _page(b.step), **info,
                            "details": details})
                n += 1
    return out


def archive_languages(store: Store, game_id: str) -> list[str]:
    """The languages the archive of ``game_id`` is written in: English (the top
    folder) and each other language a seat of the game reads (its ``language:``
    preference, :mod:`pbem.service.outgoing.seat_preferences`), in
    :data:`pbem.i18n.LANGUAGES` order, the pseudo-language last."""
    read = {seat_preferences.of(store, game_id, s["seat"])["language"] for s in store.seats(game_id)}
    return [i18n.DEFAULT] + [x for x in (*i18n.LANGUAGES, i18n.PSEUDO) if x in read and x != i18n.DEFAULT]


def write_archive(store: Store, game_id: str, out_dir: str | Path,
                  publish_press: bool | None = None, languages: Sequence[str] | None = None) -> ArchiveResult:
    """Write the static site of ``game_id`` into ``out_dir`` (created if needed; files
    of the same names are overwritten). ``publish_press``: the game's setting (None:
    read from the game's table, ``pbem game new``; the CLI passes a config game's).
    ``languages``: the page sets to write (None: :func:`archive_languages`); English
    always, in ``out_dir`` itself, every other one in ``out_dir/<language>/``. The
    counts of the result are those of one page set; ``files`` names every file.
    Raises KeyError when the game is unknown, ValueError for a language the judge
    does not render."""
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    wanted = list(languages) if languages is not None else archive_languages(store, game_id)
    bad = [x for x in wanted if not i18n.is_language(x, pseudo=True)]
    if bad:
        raise ValueError(f"not a language of this judge: {', '.join(bad)}")
    order = [i18n.DEFAULT] + [x for x in dict.fromkeys(wanted) if x != i18n.DEFAULT]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    base_pack = game_pack(store, game_id)
    seats = store.seats(game_id)
    all_batches = batches(store, game_id)
    over = game["status"] in ENDED
    rows = store.chain_rows(game_id)
    chain = [{k: r[k] for k in ("seq", "step", "kind", "public", "seat", "prev_hash", "hash")} for r in rows]
    for name, data in archive_files(store, game_id, reveal=over).items():  # the mailed archive's files too
        (out / name).write_bytes(data)
    files: list[str] = []
    counts = (0, 0)
    for language in order:
        where = "" if language == i18n.DEFAULT else f"{language}/"
        written, counts = _page_set(game_id, game, base_pack, seats, all_batches, chain, out / where if where else out,
                                    language, order, over)
        files += [where + f for f in written]
    if over and _publishes_press(store, game_id, publish_press):
        (out / "press.json").write_text(canonical_json(press_record(store, game_id)) + "\n", encoding="utf-8")
        files.append("press.json")
    files += ["log.jsonl", "game.json", "pbem_verify.py"]
    return ArchiveResult(out, counts[0], counts[1], len(chain), tuple(files))


def _page_set(game_id: str, game: dict[str, Any], base_pack: Pack, seats: Sequence[dict[str, Any]],
              all_batches: Sequence[Batch], chain: list[dict[str, Any]], out: Path, language: str,
              order: Sequence[str], over: bool) -> tuple[list[str], tuple[int, int]]:
    """One language's pages and maps in ``out`` (the archive's folder for English, its
    ``<language>/`` folder for another): the file names written, and the number of
    reports and of dice rolls."""
    tr = i18n.translations(language)
    pack = localized(base_pack, language)
    out.mkdir(parents=True, exist_ok=True)
    players = {s["seat"]: s["player"] for s in seats}
    up = "" if language == i18n.DEFAULT else "../"

    def twins(page: str) -> list[tuple[tuple[str, str], str]]:
        """Links to ``page`` in every language of the archive ("" for this one)."""
        here = [] if language == i18n.DEFAULT else [".."]
        return [((x, i18n.NAMES.get(x, x)),
                 "" if x == language else "/".join([*here, *([] if x == i18n.DEFAULT else [x]), page]))
                for x in order]

    files: list[str] = []
    entries = []
    groups = step_groups(all_batches)
    for n, group in enumerate(groups):
        step, last = group[0].step, group[-1]
        headline = joined_headlines(group, tr)
        events = [e for b in group for e in b.events]
        title = (f"{game_id} step {step}: {headline}" if language == i18n.DEFAULT  # as before issue 28
                 else tr.gettext("%(game)s, step %(step)s: %(headline)s") % {"game": game_id, "step": step,
                                                                           "headline": headline})
        (out / _map(step)).write_text(snapshot.svg(pack, last.state, events, title, players=players),
                                      encoding="utf-8")
        nav = [(tr.gettext("index"), "index.html")]
        if n > 0:
            nav.append((tr.gettext("previous"), _page(groups[n - 1][0].step)))
        if n + 1 < len(groups):
            nav.append((tr.gettext("next"), _page(groups[n + 1][0].step)))
        nav += [(tr.gettext("dice"), "dice.html"), (tr.gettext("hash chain"), "chain.html")]
        nav += [(name[1], href) for name, href in twins(_page(step)) if href]
        rep = render_batches(pack, group, game_id=game_id, seat=None, seats=seats,
                             seed_commitment=game["seed_commitment"], map_src=_map(step), nav=nav,
                             before=groups[n - 1][-1].state if n > 0 else None,
                             bots=bots_until(all_batches, group[-1]), tr=tr)
        (out / _page(step)).write_text(rep.html, encoding="utf-8")
        files += [_map(step), _page(step)]
        when = played_in(groups, n)  # the turn and round the step was played in
        entries.append({"step": step, "turn": when.turn, "round": when.round,
                        "headline": headline, "page": _page(step), "map": _map(step),
                        "rolls": sum(1 for e in events if e.kind == "DiceRolled" and e.public),
                        "events": len(events)})
    ledger = dice_ledger(all_batches, pack, tr if language != i18n.DEFAULT else None)
    final = all_batches[-1].state if all_batches else None
    status = game["status"]
    common = {"game_id": game_id, "pack": game["pack"], "status": status,
              "status_word": tr.gettext(STATUS_WORDS[status]) if status in STATUS_WORDS else status,
              "seed_commitment": game["seed_commitment"], "seed": game["seed"] if over else None,
              "players": [{"seat": s["seat"], "player": s["player"]} for s in seats], "root": up}
    result = None
    if final is not None:
        result = context.state_summary(pack, rules.view(final, None), seats, tr)["result"]
    (out / "index.html").write_text(render("archive_index.html.j2", {
        **common, "entries": entries, "rolls": len(ledger), "rows": len(chain), "result": result,
        "last_map": entries[-1]["map"] if entries else None, "languages": twins("index.html")}, tr),
        encoding="utf-8")
    (out / "dice.html").write_text(render("archive_dice.html.j2", {**common, "ledger": ledger,
                                                                    "languages": twins("dice.html")}, tr),
                                   encoding="utf-8")
    (out / "chain.html").write_text(render("archive_chain.html.j2", {**common, "chain": chain, "genesis": GENESIS,
                                                                      "languages": twins("chain.html")}, tr),
                                    encoding="utf-8")
    files += ["index.html", "dice.html", "chain.html"]
    return files, (len(groups), len(ledger))


def _publishes_press(store: Store, game_id: str, publish_press: bool | None) -> bool:
    if publish_press is not None:
        return publish_press
    row = store.table_row(game_id)
    return GameSettings.from_dict(row["settings"] if row else None).publish_press


def press_record(store: Store, game_id: str) -> list[dict[str, Any]]:
    """The press of a game as the archive publishes it (issue 16): ``[{id, step, sender,
    recipients, grey, text, at}]`` by id; ``sender`` and ``recipients`` are None for grey
    press (the recipients of a grey ``to: all`` would name the sender). Call only
    for an ended game whose ``publish_press`` is on."""
    return [published(p) for p in store.press_of(game_id)]

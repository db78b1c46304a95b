"""The static archive (``pbem archive``) and the history by mail (``history_reply``)."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from pbem import i18n
from pbem.archive import write_archive
from pbem.service.log.history import batches, history_reply
from tests.report.gamestore import make_store


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    return make_store(tmp_path_factory.mktemp("game"), steps=6)


def test_batches_follow_the_snapshots(store) -> None:
    bs = batches(store, "g1")
    assert next(i18n.localize(b.headline) for b in bs) == "setup, the game begins"
    assert len(bs) == 7
    assert i18n.localize(bs[2].headline).endswith("(deadline default)")  # stored with no inbox row
    assert [b.step for b in bs] == [0, 0, 1, 2, 3, 4, 5]
    last = store.snapshot("g1")[1]
    assert bs[-1].state.to_dict() == last


def test_archive_is_a_static_site_with_relative_links(store, tmp_path: Path) -> None:
    res = write_archive(store, "g1", tmp_path / "site")
    site = res.out_dir
    # one report per step, numbered by its step (the setup and the first decision share step 0)
    assert {"index.html", "dice.html", "chain.html", "log.jsonl", "report-0000.html", "map-0005.svg"} <= set(
        res.files)
    assert res.reports == 6 and "report-0006.html" not in res.files
    for page in site.glob("*.html"):
        html = page.read_text()
        assert "<script" not in html
        for href in re.findall(r'(?:href|src)="([^"]+)"', html):
            assert "://" not in href and not href.startswith("/"), (page.name, href)
            assert (site / href).exists(), (page.name, href)
    assert res.rolls == sum(1 for e in store.events("g1") if e.kind == "DiceRolled" and e.public)


def test_archive_log_verifies_and_hides_secrets(store, tmp_path: Path) -> None:
    site = write_archive(store, "g1", tmp_path / "site").out_dir
    prev = "0" * 64
    secret = 0
    for line in (site / "log.jsonl").read_text().splitlines():
        r = json.loads(line)
        assert r["prev_hash"] == prev
        if r["data"] is None:
            secret += 1
            assert not r["public"]
        # the recipe of the chain page (chain version 2): secret rows verify by their commitment
        body = json.dumps({"v": 2, "game": "g1", "seq": r["seq"], "kind": r["kind"], "seat": r["seat"],
                           "public": r["public"], "step": r["step"], "inbox_id": r["inbox_id"],
                           "data": r["data"] if r["public"] else None, "secret": r["secret"]},
                          sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert hashlib.sha256((prev + body).encode()).hexdigest() == r["hash"]
        prev = r["hash"]
    assert secret > 0
    seed = store.game("g1")["seed"]
    assert seed not in "".join(p.read_text() for p in site.glob("*.html"))  # the game is not over


def test_history_reply_lists_and_repeats_reports(store) -> None:
    subject, text, html = history_reply(store, "g1", "north", None)
    assert subject == "[g1] history: 6 reports"
    assert "setup, the game begins" in text and "<table>" in html
    subject, text, html = history_reply(store, "g1", "north", 0)
    assert subject.startswith("[g1] history: step 0 (setup, the game begins; ")
    assert "Report for north (Kleitos)" in text and "north is dealt" in text
    assert "east is dealt" not in text
    subject, text, _ = history_reply(store, "g1", "east", 99)
    assert subject == "[g1] history: no report for step 99" and "no report for step 99" in text
    with pytest.raises(ValueError):
        history_reply(store, "g1", "nobody", 1)
    with pytest.raises(KeyError):
        history_reply(store, "nope", "north", 1)


def test_the_archive_shows_the_round_a_step_was_played_in(store, tmp_path: Path) -> None:
    """The last player-turn of round 1 is a round-1 step, though the position after it
    is in round 2; the dice ledger says what each roll decided."""
    site = write_archive(store, "g1", tmp_path / "site").out_dir
    rows = re.findall(r'<tr><td class="n">(\d+)</td><td class="n">(\d+)</td><td class="n">(\d+)</td>',
                      (site / "index.html").read_text())
    steps = [int(r[0]) for r in rows]
    assert steps == list(range(len(steps)))
    bs = batches(store, "g1")
    for step, _turn, rnd in rows:
        group = [b for b in bs if b.step == int(step)]
        before = next((b.state for b in reversed(bs) if b.step < int(step)), group[-1].state)
        assert int(rnd) == before.round
    dice = (site / "dice.html").read_text()
    cells = re.findall(r"<td>([^<]*)</td></tr>", dice)
    assert cells and all(c.strip() for c in cells), "a roll without details"


def test_each_report_page_links_its_map_at_full_size(store, tmp_path: Path) -> None:
    """The page shows the map at the page's width; a click opens the vector map itself,
    where every name reads at any size (issue 24.15: the embedded map alone was too small)."""
    site = write_archive(store, "g1", tmp_path / "site").out_dir
    pages = sorted(site.glob("report-*.html"))
    assert pages
    for page in pages:
        html = page.read_text()
        img = re.search(r'<img class="map" src="([^"]+)"', html)
        if img is None:
            continue
        assert re.search(rf'<a href="{re.escape(img.group(1))}"[^>]*><img class="map"', html), page.name
        assert img.group(1).endswith(".svg") and (site / img.group(1)).exists()


def test_archive_pages_in_each_language_of_the_seats(store, tmp_path: Path) -> None:
    """Issue 28 item 2 (text28c): the archive is written once more per language of the
    game's seats, each page linking to its twins; the log and the verifier once, at the
    top, language-free (item 7). An all-English game gets the English pages only."""
    from pbem.archive import archive_languages

    assert archive_languages(store, "g1") == ["en"]
    alone = write_archive(store, "g1", tmp_path / "en")
    assert not any("/" in f for f in alone.files) and not (tmp_path / "en" / "es").exists()
    res = write_archive(store, "g1", tmp_path / "site", languages=["ru", "es"])
    site = res.out_dir
    assert {"es/index.html", "ru/index.html", "es/dice.html", "ru/chain.html", "es/report-0000.html",
            "ru/map-0005.svg", "log.jsonl", "pbem_verify.py"} <= set(res.files)
    assert not (site / "es" / "log.jsonl").exists() and not (site / "ru" / "pbem_verify.py").exists()
    for page in [*site.glob("*.html"), *site.glob("*/*.html")]:
        for href in re.findall(r'(?:href|src)="([^"]+)"', page.read_text()):
            assert "://" not in href and not href.startswith("/"), (page, href)
            assert (page.parent / href).exists(), (page, href)
    english = (site / "index.html").read_text()
    assert 'href="es/index.html"' in english and 'href="ru/index.html"' in english
    assert "game archive" in english and '<html lang="en">' in english
    es, ru = ((site / x / "index.html").read_text() for x in ("es", "ru"))
    assert '<html lang="es">' in es and "archivo de la partida" in es and "game archive" not in es
    assert '<html lang="ru">' in ru and "архив партии" in ru and "game archive" not in ru
    assert 'href="../log.jsonl"' in es and 'href="../index.html"' in es  # up to the log and the English twin
    assert "Comprueba que" in es or "Compruébalo" in es
    chain = (site / "ru" / "chain.html").read_text()
    assert "цепочка хешей" in chain and 'open("../log.jsonl")' in chain
    dice = (site / "es" / "dice.html").read_text()
    assert "registro de dados" in dice and "Propósito" in dice
    report = (site / "es" / "report-0001.html").read_text()
    assert '<html lang="es">' in report and 'href="../report-0001.html"' in report
    assert "Babilonia" in (site / "es" / "map-0005.svg").read_text()
    with pytest.raises(ValueError, match="not a language"):
        write_archive(store, "g1", tmp_path / "bad", languages=["fr"])


def test_the_mailed_log_archive_has_its_readme_in_the_seats_language(store) -> None:
    """The zip a seat is sent (`command: archive`, the seed mail): its README.txt in the
    seat's language (issue 28, text28c), every other file byte for byte the same in
    every language (item 7); the English README as it always was."""
    import io
    import zipfile
    from datetime import UTC, datetime

    from pbem.service.log.trust import log_archive

    when = datetime(2026, 12, 4, 18, 0, tzinfo=UTC)

    def unzipped(tr) -> dict[str, bytes]:
        made = log_archive(store, "g1", when, tr)
        with zipfile.ZipFile(io.BytesIO(made.data)) as zf:
            return {name.split("/", 1)[1]: zf.read(name) for name in zf.namelist()}

    en, es, ru = (unzipped(i18n.translations(x)) for x in ("en", "es", "ru"))
    assert unzipped(None) == en
    assert set(en) == set(es) == set(ru) == {"README.txt", "log.jsonl", "game.json", "pbem_verify.py"}
    for name in ("log.jsonl", "game.json", "pbem_verify.py"):
        assert en[name] == es[name] == ru[name], name
    english = en["README.txt"].decode()
    assert " ".join(english.split()).startswith("Game g1: its log archive, as the judge mailed it on 2026-12-04 "
                                                "18:00 UTC.")
    assert "  game.json       the game id, the chain and dice versions, the seed commitment,\n" in english
    spanish, russian = es["README.txt"].decode(), ru["README.txt"].decode()
    flat_es, flat_ru = (" ".join(x.split()) for x in (spanish, russian))
    assert flat_es.startswith("Partida g1: su archivo del registro") and "Compruébalo desde la carpeta" in flat_es
    assert flat_ru.startswith("Партия g1: архив её журнала") and "Game g1" not in flat_ru
    assert "--commitment=" in spanish or "--commitment" in spanish  # the command line stays as it is
    assert max(len(line) for line in spanish.splitlines() if not line.startswith("  ")) <= 72

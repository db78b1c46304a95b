"""The movement segment's fast paths (issue 27 item 5, fourth pass, i-moves27) answer
exactly as the plain code they stand for."""
from __future__ import annotations

from pbem.pack import names as pack_names
from pbem.pack.loader import load_pack
from pbem.rules.core import board
from pbem.rules.core.board import resolve_general, resolve_id


def test_general_names_remembered_answer_as_the_plain_lookup(monkeypatch) -> None:  # noqa: ANN001
    """R-5: a general named by id, name (any case, ``_`` for spaces) or a text naming
    none resolves as the plain scan and lookup do, the second time without a scan; the
    memo stays within its bound whatever texts come."""
    pack = load_pack(None)
    texts: list[object] = [None, 3, "", "nobody", "  Seleucus ", "macedon"]
    for gid, g in pack.generals.items():
        texts += [gid, gid.upper(), g.name, g.name.lower().replace(" ", "_")]

    def plain(text: object) -> str | None:
        return resolve_id(pack.generals, text) or pack_names.lookup(pack, "generals", text)

    want = [plain(t) for t in texts]
    assert any(want) and None in want
    assert [resolve_general(pack, t) for t in texts] == want
    scans: list[object] = []
    monkeypatch.setattr(board, "resolve_id", lambda entries, text: scans.append(text))
    assert [resolve_general(pack, t) for t in texts] == want  # remembered: no scan
    assert scans == []
    monkeypatch.undo()
    for n in range(board._GENERAL_NAMES_MAX + 10):
        assert resolve_general(pack, f"junk{n}") is None
    assert len(board._GENERAL_NAMES[id(pack)][1]) <= board._GENERAL_NAMES_MAX
    assert [resolve_general(pack, t) for t in texts] == want

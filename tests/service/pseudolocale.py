"""Every mail kind in the pseudo-language (issue 28; :data:`pbem.i18n.PSEUDO`): games
played through the service (``Judge.handle_message`` and ``Judge.tick``, as
tools/service_hashes.py plays them) with every seat and the host in the pseudo-language,
every mail they get read back from the outbox, and each line of its text part sorted into
marked (inside a ``⟦…⟧`` that a catalogue translates) and unmarked prose (English no
catalogue can reach).

Not prose, so never counted: blank lines, numbers and punctuation, names (seats,
players, games, and the pack's spaces, provinces, generals, royals, fleets, armies,
cards, CU types, also by their ids), the YAML blocks (a line whose first word is a YAML
key: orders stay English, issue 28 item 5, and the diff of two orders documents),
hashes and seat keys, the verifier's command lines (indented ``python3 …py`` and
``--option=`` lines), and what a player wrote (press quoted with ``>``, the orders
block quoted back, the subject an answer keeps).
"""
from __future__ import annotations

import email
import email.policy
import hashlib
import random
import re
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from pbem import i18n, rules
from pbem.config import parse_config
from pbem.pack.model import Pack
from pbem.service import Judge
from pbem.service.commands import host_commands
from pbem.service.log import trust
from pbem.service.outgoing import host_notices
from pbem.service.play import setup
from pbem.store import Store
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS

OPEN, CLOSE = i18n.OPEN, i18n.CLOSE
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_YAML = re.compile(r"^[+-]?\s*(?:- )?\{?[a-z_]+:(?:\s|$)")
_DIFF = re.compile(r"^(?:@@ |--- |\+\+\+ )")
_KEY = re.compile(r"^\s*[a-z0-9]{4}(?:-[a-z0-9]{4}){5}\s*$")
_HEX = re.compile(r"\b[0-9a-f]{16,}(?:@\d+)?\b")
_COMMAND = re.compile(r"^\s{2,}(?:python3? \S+\.py\b|--[a-z]+=)")
"""An indented command line the reader copies (the verifier's, with its options)."""


def names_of(pack: Pack, extra: Iterable[str] = ()) -> set[str]:
    """Every word of a name that a mail may show untranslated (lower case): seats,
    players, and the pack's names (its own per-language names are a later step)."""
    out: set[str] = set()
    groups = [pack.provinces, pack.spaces, pack.generals, pack.royals, pack.fleets, pack.independent_armies,
              pack.cu_types, pack.special_units, pack.cards]
    for group in groups:
        for key, item in group.items():
            out |= {w.lower() for w in _WORD.findall(item.name)}
            out |= {w.lower() for w in _WORD.findall(str(key))}  # the id an orders block writes (cilician_gates)
    out |= {w.lower() for w in _WORD.findall(" ".join([*SEATS, *PLAYERS.values(), *extra]))}
    return out


@dataclass
class Figure:
    """Lines of prose per mail kind: marked (translatable) and unmarked (English no
    catalogue reaches), with a few unmarked examples."""

    marked: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    unmarked: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    mails: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def kinds(self) -> list[str]:
        return sorted(self.mails)

    def clean(self) -> list[str]:
        """The kinds with no unmarked line of prose."""
        return [k for k in self.kinds() if not self.unmarked[k]]

    def summary(self) -> str:
        total_m, total_u = sum(self.marked.values()), sum(self.unmarked.values())
        rows = [f"{k}: {self.mails[k]} mails, {self.marked[k]} marked, {self.unmarked[k]} unmarked"
                for k in self.kinds()]
        return (f"{len(self.clean())} of {len(self.kinds())} mail kinds fully marked; prose lines "
                f"{total_m} marked, {total_u} unmarked\n" + "\n".join(rows))


def unmarked_prose(text: str, names: set[str]) -> tuple[int, list[str]]:
    """``(marked, unmarked)``: the number of prose lines of ``text`` inside a mark, and
    the prose lines outside any (module docstring: what is not prose)."""
    depth = 0  # marks nest (a message put into another's placeholder) and span lines
    marked, unmarked = 0, []
    for line in text.splitlines():
        rest, had = [], depth > 0
        for ch in line:
            if ch == OPEN:
                depth, had = depth + 1, True
            elif ch == CLOSE:
                depth = max(depth - 1, 0)
            elif depth == 0:
                rest.append(ch)
        outside = "".join(rest)
        if (line.lstrip().startswith(">") or _YAML.match(outside) or _DIFF.match(line) or _KEY.match(line)
                or _COMMAND.match(line) or line.strip() == "--"):
            continue
        words = [w for w in _WORD.findall(_HEX.sub(" ", outside)) if w.lower() not in names and len(w) > 1]
        if had and not words:
            marked += 1
        elif words:
            unmarked.append(line)
    return marked, unmarked


def kind_of(outbox_kind: str, text: str) -> str:
    """A finer mail kind than the outbox's: the answers apart (receipt, rejection,
    history, command reply)."""
    if outbox_kind != "reply":
        return outbox_kind
    if "orders from %(seat)s accepted" in text or "orders from" in text.split("\n", 1)[0]:
        return "receipt"
    if "was not applied" in text:
        return "rejection"
    if "past reports for" in text.split("\n", 1)[0]:
        return "history"
    return "command reply"


def figure(judge: Judge, addresses: set[str], names: set[str]) -> Figure:
    """The pseudo-language figure of every mail in the outbox to ``addresses``."""
    fig = Figure()
    for row_id, kind, to in judge.store.db.execute("SELECT id, kind, to_addr FROM outbox ORDER BY id").fetchall():
        if to not in addresses:
            continue
        msg = email.message_from_bytes(judge.store.outbox_row(row_id)["raw"], policy=email.policy.default)
        text = msg.get_body(("plain",)).get_content()
        subject = str(msg["Subject"])
        k = kind_of(kind, text)
        fig.mails[k] += 1
        own = subject.startswith("Re: ") and not subject.startswith("Re: [")  # the player's own subject
        for body in (("" if own else re.sub(r"^(Re: )?\[[^]]+\] (step \d+:? )?", "", subject)), text):
            m, u = unmarked_prose(body, names)
            fig.marked[k] += m
            fig.unmarked[k] += len(u)
            if len(fig.examples[k]) < 8:
                fig.examples[k] += u[:8 - len(fig.examples[k])]
    return fig


class Clock:
    """The judge's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2029, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _mail(sender: str, body: str, n: int, subject: str = "orders") -> bytes:
    return (f"From: {sender}\r\nTo: judge@pbem.localhost\r\nSubject: {subject} {n}\r\n"
            f"Message-ID: <pseudo-{n}@players.test>\r\nDate: Mon, 01 Jan 2029 00:00:00 +0000\r\n\r\n"
            f"{body}").encode()


def play(tmp: Path, seed: int, decisions: int, language: str = i18n.PSEUDO) -> tuple[Judge, set[str]]:
    """A game ``p<seed>`` with every seat and the host in ``language``, played by the
    random bots for ``decisions`` decisions through the service, with every kind of
    mail the judge sends mixed in (wrong keys, a stale step, a stranger, a held mail,
    history, help, status, preferences, press, a reminder and a missed deadline, a
    bounce, a fault, the seed reveal, the welcomes of ``pbem game new``, the host's
    pause, resume and extend, resend and absence). Returns the
    judge and the addresses whose mail is in ``language``."""
    gid = f"p{seed}"
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp / f"{gid}.sqlite"),
        "map_attachment": False, "deadlines": {"player_turn": "2h", "reaction": "1h", "reminder": "30m"},
        "games": [{"id": gid, "host_email": "host@pbem.localhost", "settings": {"host_language": language},
                   "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                              "key_hash": HASHES[s], "language": language} for s in SEATS]}]}, base=tmp)
    clock = Clock()
    judge = Judge(config, Store(config.database), clock=clock,
                  new_seed=lambda: hashlib.sha256(f"seed-{seed}".encode()).digest())
    judge.ensure_games()
    rng = random.Random(seed)
    n = 0

    def send(sender: str, doc: object, subject: str = "orders") -> None:
        nonlocal n
        n += 1
        judge.handle_message(_mail(sender, doc if isinstance(doc, str) else yaml.safe_dump(doc, sort_keys=False),
                                   n, subject))

    for i in range(decisions):
        state = judge.state(gid)
        pending = rules.pending(state)
        if not pending:
            break
        d = pending[0]
        doc = {"game": gid, "seat": d.seat, "key": KEYS[d.seat], "step": state.step,
               "orders": rules.bot_orders(state, d.seat, rng)}
        addr = f"{d.seat}@pbem.localhost"
        other = next(s for s in SEATS if s != d.seat)
        if i % 5 == 1:
            send(addr, {**doc, "key": "guess"})
            send(addr, {**doc, "step": state.step - 1})
            send(addr, {**doc, "orders": {"tyche": {"card": 999, "use": "nonsense"}}})
        if i % 7 == 2:
            send("stranger@else.test", doc)
        if i % 6 == 3:
            send(f"{other}@pbem.localhost", {"game": gid, "seat": other, "key": KEYS[other],
                                             "history": max(state.step - 1, 0)})
        if i == 2:
            for command in ({"command": "help"}, {"command": "status"}, {"command": "preferences", "map": "off"},
                            {"command": "press", "to": "all", "text": "Greetings from the satrapy."}):
                send(f"{other}@pbem.localhost", {"game": gid, "seat": other, "key": KEYS[other], **command})
        if i == 3:  # the host's table notices and the replies of commands that change things (issue 28 A)
            host_commands.run(judge, gid, "pause", reason="a test")
            host_commands.run(judge, gid, "resume")
            host_commands.run(judge, gid, "extend", hours=1)
            away = (clock.now + timedelta(days=5)).date()
            for command in ({"command": "resend"}, {"command": "absence", "from": str(away), "to": str(away)},
                            {"command": "absence", "cancel": True}):
                send(addr, {"game": gid, "seat": d.seat, "key": KEYS[d.seat], **command})
        if i == 4:  # a reminder, then the deadline passes: the default applies
            due = min(datetime.fromisoformat(r["due_at"]) for r in judge.store.open_deadlines())
            clock.now = due - timedelta(minutes=20)
            judge.tick()
            clock.now = due + timedelta(minutes=5)
            judge.tick()
            continue
        send(addr, doc)
        clock.now += timedelta(minutes=1)
    state = judge.state(gid)
    other = rules.pending(state)[0].seat if rules.pending(state) else SEATS[0]
    for _ in range(3):  # the third wrong key alerts the seat and the host
        send(f"{other}@pbem.localhost", {"game": gid, "seat": other, "key": "wrong", "step": state.step, "orders": {}})
    with judge.store.transaction():
        host_notices.report_fault(judge, "test", "a test fault", "A fault of the judge as a whole.")
    trust.abandon(judge, gid, "the pseudo-language test")  # the seed reveal
    setup.new_game(judge, f"{gid}n", [setup.NewSeat(s, s.title(), f"{s}.new@pbem.localhost", language)
                                      for s in SEATS], host_email="host.new@pbem.localhost",
                   settings={"host_language": language})
    addresses = {f"{s}@pbem.localhost" for s in SEATS} | {f"{s}.new@pbem.localhost" for s in SEATS} | \
        {"host@pbem.localhost", "host.new@pbem.localhost"}
    return judge, addresses


def main() -> None:
    """Print the figure of two seeded games (``python -m tests.service.pseudolocale``)."""
    with tempfile.TemporaryDirectory() as tmp:
        for seed in (1, 2):
            judge, addresses = play(Path(tmp), seed, 30)
            fig = figure(judge, addresses, names_of(judge.pack_for(f"p{seed}")))
            print(f"seed {seed}: {fig.summary()}")


if __name__ == "__main__":
    main()

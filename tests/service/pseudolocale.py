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
from pbem.keys import hash_key
from pbem.pack.model import Pack
from pbem.service import Judge
from pbem.service.commands import host_commands
from pbem.service.commands.anyone import observe
from pbem.service.outgoing.faults import ServerFaults
from pbem.service.play import setup
from pbem.store import Store
from tests.conftest import HASHES, KEYS, PLAYERS, SEATS, mail_orders

OPEN, CLOSE = i18n.OPEN, i18n.CLOSE
HOST_KEY = "the-host-key"
HOST_HASH = hash_key(HOST_KEY, iterations=1000)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_YAML = re.compile(r"^[+-]?\s*(?:- )?\{?[a-z_]+:(?:\s|$)")
_DIFF = re.compile(r"^(?:@@ |--- |\+\+\+ )")
_KEY = re.compile(r"^\s*[a-z0-9]{4}(?:-[a-z0-9]{4}){5}\s*$")
_ADDRESS = re.compile(r"[\w.+-]+@[\w.-]+")
"""A mail address (a name: the observers' list, a record, a sign-up)."""
_HEX = re.compile(r"\b[0-9a-f]{16,}(?:@\d+)?\b")
_RULE = re.compile(r"\bR-\d+(?:\.\d+)*[a-z]?\b")
"""A rule ID (R-16.1): a name of the rules brief, the same in every language."""
_COMMAND = re.compile(r"^\s{2,}(?:python3? \S+\.py\b|--[a-z]+=)")
"""An indented command line the reader copies (the verifier's, with its options)."""


HOST_REASONS = ("a lost mail", "the pseudo-language test")
"""The host's own words :func:`play` gives as reasons (rollback, end): shown as the host
wrote them, after a translated label ("motivo: …"), in every language."""


def names_of(pack: Pack, extra: Iterable[str] = ()) -> set[str]:
    """Every word of a name that a mail may show untranslated (lower case): seats, the
    host's reasons (:data:`HOST_REASONS`),
    players, and the pack's names but the cards' (the pseudo-language's pack marks every
    card's name and text, :func:`pbem.pack.names.localized`: a card named from the
    canonical pack instead of the reader's is English left in the mail; issue 28)."""
    out: set[str] = set()
    groups = [pack.provinces, pack.spaces, pack.generals, pack.royals, pack.fleets, pack.independent_armies,
              pack.cu_types, pack.special_units]
    for group in groups:
        for key, item in group.items():
            out |= {w.lower() for w in _WORD.findall(item.name)}
            out |= {w.lower() for w in _WORD.findall(str(key))}  # the id an orders block writes (cilician_gates)
    out |= {w.lower() for w in _WORD.findall(" ".join([*SEATS, *PLAYERS.values(), *HOST_REASONS, *extra]))}
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
        words = [w for w in _WORD.findall(_RULE.sub(" ", _HEX.sub(" ", _ADDRESS.sub(" ", outside))))
                 if w.lower() not in names and len(w) > 1]
        if had and not words:
            marked += 1
        elif words:
            unmarked.append(line)
    return marked, unmarked


def kind_of(outbox_kind: str, text: str, subject: str = "") -> str:
    """A finer mail kind than the outbox's: the answers apart (receipt, rejection,
    history, help, command reply, host receipt) and the judge-wide fault notices apart
    from a game's host notices (they go to every host of the judge, each in its host
    language: ``[pbem] judge notice: …``)."""
    if outbox_kind == "host" and subject.startswith("[pbem] "):  # a judge notice, its words translated
        return "judge notice"
    if outbox_kind != "reply":
        return outbox_kind
    if subject.startswith("Re: host "):
        return "host receipt"
    if "Help for seat" in text.split("\n", 1)[0]:
        return "help"
    if "orders from %(seat)s accepted" in text or "orders from" in text.split("\n", 1)[0]:
        return "receipt"
    if "was not applied" in text:
        return "rejection"
    if "past reports for" in text.split("\n", 1)[0] or "history" in subject.split("] ", 1)[-1][:12]:
        return "history"
    return "command reply"


def texts(judge: Judge, addresses: set[str]) -> list[str]:
    """The subject and text part of every mail in the outbox to ``addresses``, each
    run of white space as one space (a phrase wrapped over two lines reads whole)."""
    out = []
    for row_id, to in judge.store.db.execute("SELECT id, to_addr FROM outbox ORDER BY id").fetchall():
        if to in addresses:
            msg = email.message_from_bytes(judge.store.outbox_row(row_id)["raw"], policy=email.policy.default)
            out.append(" ".join(f"{msg['Subject']} {msg.get_body(('plain',)).get_content()}".split()))
    return out


def figure(judge: Judge, addresses: set[str], names: set[str]) -> Figure:
    """The pseudo-language figure of every mail in the outbox to ``addresses``."""
    fig = Figure()
    for row_id, kind, to in judge.store.db.execute("SELECT id, kind, to_addr FROM outbox ORDER BY id").fetchall():
        if to not in addresses:
            continue
        msg = email.message_from_bytes(judge.store.outbox_row(row_id)["raw"], policy=email.policy.default)
        text = msg.get_body(("plain",)).get_content()
        subject = str(msg["Subject"])
        k = kind_of(kind, text, subject)
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
    pause, resume and extend, resend and absence; issue 29's proposals, votes and their
    notices, ``status``, standby, observe, leave and record from a seat of the second
    game, and the host's commands by mail with their receipts: status, observers,
    resend, rollback and end). Returns the
    judge and the addresses whose mail is in ``language``."""
    gid = f"p{seed}"
    config = parse_config({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp / f"{gid}.sqlite"),
        "map_attachment": False, "deadlines": {"player_turn": "2h", "reaction": "1h", "reminder": "30m"},
        "games": [{"id": gid, "host_email": "host@pbem.localhost", "host_key_hash": HOST_HASH,
                   "settings": {"host_language": language, "observers": "anyone", "vote_hours": 1},
                   "seats": [{"seat": s, "player": PLAYERS[s], "email": f"{s}@pbem.localhost",
                              "key_hash": HASHES[s], "language": language} for s in SEATS]}]}, base=tmp)
    clock = Clock()
    judge = Judge(config, Store(config.database), clock=clock,
                  new_seed=lambda: hashlib.sha256(f"seed-{seed}".encode()).digest())
    judge.ensure_games()
    rng = random.Random(seed)
    n = 0
    # a second game, so that addresses of its seats (in ``language``) may stand by, observe
    # and ask for their record in the first one (issue 29's answers, in the address's language)
    setup.new_game(judge, f"{gid}n", [setup.NewSeat(s, s.title(), f"{s}.new@pbem.localhost", language)
                                      for s in SEATS], host_email="host.new@pbem.localhost",
                   settings={"host_language": language})

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
               "orders": mail_orders(state, d.seat, rng)}
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
        if i == 6:  # issue 29's mails: votes, status, standby, observers, record, the host's commands by mail
            third = next(s for s in SEATS if s not in (d.seat, other))
            for who, command in ((other, {"command": "propose", "end": "draw", "among": [d.seat, other]}),
                                 (d.seat, {"command": "vote", "proposal": 1, "vote": "yes"}),
                                 (third, {"command": "status"}),
                                 (third, {"command": "vote", "proposal": 1, "vote": "no"}),
                                 (third, {"command": "propose", "end": "draw", "among": "all"})):
                send(f"{who}@pbem.localhost", {"game": gid, "seat": who, "key": KEYS[who], **command})
            for command in ({"game": "any", "command": "standby", "standby": True},
                            {"game": gid, "command": "observe"},
                            {"game": gid, "command": "observe",  # the code the judge mailed to the address
                             "confirm": observe.code(judge, gid, f"{other}.new@pbem.localhost")},
                            {"game": gid, "command": "leave"}, {"game": gid, "command": "record"}):
                send(f"{other}.new@pbem.localhost", command)
            for command in ({"command": "status"}, {"command": "observers"},
                            {"command": "observers", "add": "friend@else.test"}, {"command": "resend"},
                            {"command": "resume"}):  # the last one refused: the game is not paused
                send("host@pbem.localhost", {"game": gid, "host": HOST_KEY, **command}, f"host {command['command']}")
        if i == 7:  # the proposal of the step before expires (its vote_hours have passed)
            clock.now += timedelta(hours=1, minutes=1)
            send(addr, {"game": gid, "seat": d.seat, "key": KEYS[d.seat], "command": "status"})
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
    # a fault of the judge as a whole, told to every host in the host's language (issue 28 text28c item 4)
    ServerFaults().failed(judge, "internal", RuntimeError("a test fault"))
    state = judge.state(gid)
    for command in ({"command": "rollback", "to_step": max(state.step - 2, 0), "reason": HOST_REASONS[0]},
                    {"command": "end", "abandon": True, "reason": HOST_REASONS[1]}):  # the seed reveal
        send("host@pbem.localhost", {"game": gid, "host": HOST_KEY, **command}, f"host {command['command']}")
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

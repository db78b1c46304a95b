"""Host commands (issue 16, slice 2), by CLI (``pbem host COMMAND GAME``) and by mail
(a document from the host's address carrying the host key)::

    game: g2
    host: <the host key printed by `pbem game new`>
    command: pause          # status | pause | resume | extend | replace | resend
    reason: a holiday       # pause, resume (optional); end, rollback
    winner: east            # end (or `abandon: true`); see pbem.service.play.endgame
    to_step: 3              # rollback
    hours: 24               # extend: how long (optional seat: east)
    player: Ann <a@x.org>   # replace, with seat: east (or bot: true: the game's bot takes it)
    add: ann@example.org    # observers: allow an address to observe (or remove:; neither: the list)
    url: https://…          # webhook: the host's notices posted there too (`off`: no more)

Each command is one module of :mod:`pbem.service.commands.host`, listed in the
registry (:mod:`pbem.service.commands.catalogue`); this module checks who sent a mail
and its fields, and runs the command (:func:`run`, also ``pbem host``).

Each command is recorded as an event in the game's hash chain (the state unchanged, a
snapshot after it, so ``pbem verify`` and the replay hold) and answered with a receipt;
pause and resume tell every seat. While a game is paused no deadline passes (the
deadline tick skips it); resuming moves every open deadline on by the length of the
pause, each move a ``DeadlineMoved`` event. Every move (resume, extend) then keeps to
the game's allowed days and the seat's absences (:func:`pbem.service.base.calendar.adjust`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem import i18n, rules
from pbem.mail.headers import clean_text, fold_address
from pbem.mail.message import ParsedMail
from pbem.mail.suggest import suggest
from pbem.problems import Problem
from pbem.report import build
from pbem.service.base.context import Service
from pbem.service.base.settings import host_of, wrapped
from pbem.service.base.text import re_subject
from pbem.service.commands import replay
from pbem.service.commands.catalogue import REGISTRY
from pbem.service.commands.host.common import STATUS_WORDS
from pbem.service.commands.registry import KINDS, Done, HostRequest, Refused, Who, refusal_in
from pbem.service.identity import envelope, hostkey
from pbem.service.log import trust
from pbem.service.outgoing import answers, host_notices, outbox

HOST_KEYS = ("game", "host", "command", "seq")
"""The keys every host command mail may carry (a command's own keys come on top)."""
_EXAMPLES = {"reason": "reason: a holiday", "hours": "hours: 24", "seat": "seat: east", "winner": "winner: east",
             "player": "player: Ann <ann@example.org>", "abandon": "abandon: true", "to_step": "to_step: 3", "bot": "bot: true",
             "add": "add: ann@example.org", "remove": "remove: ann@example.org",
             "url": "url: https://chat.example.org/hooks/…"}


def host_key_hash(judge: Service, game_id: str) -> str | None:
    """The host key hash of a game: the config's ``host_key_hash``, else the table's."""
    game = judge.config.game(game_id)
    if game is not None and game.host_key_hash:
        return game.host_key_hash
    row = judge.store.table_row(game_id)
    return row["host_key_hash"] if row else None


def _say(via: str, mail: str, cli: str) -> str:
    """``mail`` for a host command given by mail, ``cli`` for one given by ``pbem host``
    (issue 24, finding 14: the CLI answered with mail commands)."""
    return cli if via == "cli" else mail


def run(judge: Service, game_id: str, command: str, *, reason: str = "", hours: float | None = None,
        seat: str | None = None, player: str | None = None, winner: str | None = None,
        abandon: bool = False, to_step: int | None = None, bot: bool = False, add: str | None = None,
        remove: str | None = None, url: str | None = None, via: str = "mail") -> Done:
    """Carry out host ``command`` on ``game_id`` in one transaction: the registry's
    :class:`~pbem.service.commands.registry.HostCommand` of that name (see the module
    docstring). ``via`` is ``mail`` or ``cli`` (``pbem host``): the receipt and the
    refusals name what to do next in the host's own terms. Raises KeyError for an
    unknown game and ValueError, saying what to do instead, for a command that does not
    apply (resume a running game, …)."""
    store = judge.store
    game = store.game(game_id)
    if game is None:
        raise KeyError(game_id)
    names = REGISTRY.names(Who.HOST)
    found = REGISTRY.host(command)
    if found is None:
        raise Refused(lambda tr: tr.gettext("no host command %(command)s; the commands are %(names)s") % {
            "command": repr(command), "names": ", ".join(names)})
    if game["status"] in trust.ENDED and not found.after_end:
        status = game["status"]
        raise Refused(lambda tr: tr.gettext("game %(game)s is %(status)s; only status works on it") % {
            "game": game_id, "status": tr.gettext(STATUS_WORDS[status]) if status in STATUS_WORDS else status})
    now = judge.clock()
    values = {"reason": clean_text(reason, 500),  # logged and mailed to every seat: no control characters (break16)
              "hours": hours, "seat": seat, "player": player, "winner": winner, "abandon": abandon,
              "to_step": to_step, "bot": bot, "add": add, "remove": remove, "url": url}
    with store.transaction():
        return found.process(judge, HostRequest(game_id, game, values, via, now))


def _signup_mail(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                 shown: Mapping[str, Any], game_id: str) -> str:
    """A host command for a game still open for sign-up (it has no log yet): the host
    with its key gets who joined so far; anything else, or anyone else, a refusal. Mail
    to the host's address is in the sign-up's ``host_language`` (issue 28; its refusals
    too, lang28f item 1: the address may host no other game to look it up from)."""
    row = judge.store.signup(game_id)
    key = doc.get("host")
    language = (row.get("settings") or {}).get("host_language")  # the host's language (issue 28)
    language = language if i18n.is_language(language, pseudo=True) else i18n.DEFAULT
    to_host = language if fold_address(parsed.sender or "") == fold_address(row["host_email"]) else None
    if fold_address(parsed.sender or "") != fold_address(row["host_email"]) or not row["host_key_hash"] \
            or not isinstance(key, str) \
            or not judge.keys.verify(key, row["host_key_hash"]):
        issue = Problem(message="This mail is not from the host of that game with its host key, so no host "
                        "command was carried out.", where="host", code="auth.key",
                        hint="Send host commands from the host's address with the host key that "
                             "`pbem game open` printed (docs/host-guide.md).", params={"why": "host"})
        return answers.reject(judge, parsed, rec, [issue], None, None, {"document": shown}, language=to_host)
    taken = {r["seat"]: r["player"] for r in judge.store.signup_seats(game_id)}
    free = [s for s in rules.SEATS if s not in taken]
    if doc.get("command") != "status":
        issue = Problem(message=f"{game_id} is open for sign-up and has not started ({len(taken)} of "
                        f"{len(rules.SEATS)} seats taken): `command: {doc.get('command')}` works once it starts.",
                        where="command", code="host.refused",
                        hint="`command: status` shows who joined; the game starts when the last seat is taken.",
                        params={"why": "signup", "game": game_id, "taken": len(taken), "seats": len(rules.SEATS),
                                "command": str(doc.get("command"))})
        return answers.reject(judge, parsed, rec, [issue], None, None, {"document": shown}, language=language)
    rec("host", "", result={"document": shown})
    tr = i18n.translations(language)
    text = build.render_notice(wrapped(tr.gettext(
        "%(game)s is open for sign-up. Joined: %(joined)s. Free: %(free)s. It starts when the last seat is "
        "taken.") % {"game": game_id, "joined": ", ".join(f"{s}: {p}" for s, p in taken.items())
                     or tr.gettext("nobody yet"), "free": ", ".join(free)}), game_id, tr)
    outbox.queue(judge, game_id=None, kind="reply", to_addr=parsed.sender, to_name=parsed.sender_name or None,
                 subject=re_subject(parsed.subject), text=text,
                 html=build.html_of_text(tr.gettext("sign-up status"), text, i18n.language_of(tr)),
                 id_parts=(game_id, "host-reply", *answers.answer_key(parsed)), in_reply_to=parsed.message_id,
                 references=parsed.references, auto="auto-replied")
    return "host"


def read_fields(doc: Mapping[str, Any]) -> tuple[str, dict[str, Any], list[Problem]]:
    """The command of a host command mail and its own values as :func:`run` takes them
    (``seat``/``winner`` stripped and lowercased), and every problem: no such command,
    a key the command does not take (with "did you mean"), a value of the wrong kind
    (the command's declared fields). Reads only."""
    name = doc.get("command")
    names = REGISTRY.names(Who.HOST)
    found = REGISTRY.host(name)
    if found is None:
        near = suggest(str(name), names) if isinstance(name, str) else None
        return "", {}, [Problem(message=f"There is no host command {envelope.shown_value(name)}; the commands are "
                                f"{', '.join(names)}.", where="command", code="host.refused",
                                hint=f"did you mean `{near}`?" if near else "docs/host-guide.md lists the host commands.",
                                params={"why": "unknown", "command": envelope.shown_value(name),
                                        "names": ", ".join(names)})]
    own = {f.name: f.kind for f in found.fields}
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    allowed = [*HOST_KEYS, *own]
    for key in doc:
        if key in HOST_KEYS:
            continue
        if key not in own:
            near = suggest(str(key), list(own)) if own else None
            problems.append(Problem(message=f"Unknown key `{key}` in `command: {name}`; it takes: {', '.join(allowed)}.",
                                    where=str(key), code="envelope.unknown_key",
                                    hint=f"did you mean `{near}`?" if near else "Leave the line out "
                                                                               "(docs/host-guide.md)."))
            continue
        value, kind = doc[key], own[key]
        ok = (isinstance(value, str) if kind in ("text", "seat", "address") else isinstance(value, bool) if kind == "flag"
              else not isinstance(value, bool) and isinstance(value, int | float) if kind == "number"
              else not isinstance(value, bool) and isinstance(value, int))
        if not ok:
            problems.append(Problem(message=f"`command: {name}` needs `{key}` as {KINDS[kind]}, e.g. "
                                    f"`{_EXAMPLES[key]}`; found {envelope.shown_value(value)}.",
                                    where=str(key), code="host.refused",
                                    hint="A value of another kind is never read as a default or as every seat "
                                         "(docs/host-guide.md, \"Host commands\").",
                                    params={"why": f"value:{kind}", "command": name, "key": str(key),
                                            "example": _EXAMPLES[key], "found": envelope.shown_value(value)}))
        else:
            values[key] = value.strip().lower() if kind == "seat" else value
    return name, values, problems


def handle_mail(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                shown: Mapping[str, Any]) -> str:
    """A host command by mail: the sender must be the game's host address and the
    ``host:`` value its key (the same refusal either way: no oracle; a wrong key counts
    for the host's lockout, :mod:`pbem.service.identity.hostkey`), every key of the right kind
    (:func:`read_fields`), and the mail no copy of a command applied before
    (:mod:`pbem.service.commands.replay`). Answered with the receipt or with what to do instead."""
    shown = {**shown, "host": "(hidden)"}
    game_id = doc.get("game")
    if isinstance(game_id, str) and judge.store.game(game_id) is None and judge.store.signup(game_id):
        return _signup_mail(judge, parsed, doc, rec, shown, game_id)
    known = isinstance(game_id, str) and judge.store.game(game_id) is not None
    who = hostkey.check_host(judge, parsed, doc, game_id if known else None, host_of(judge, game_id) if known else None,
                             host_key_hash(judge, game_id) if known else None,
                             hint="Send host commands from the host's address with the host key that "
                                  "`pbem game new` printed; a game of the judge's config takes them once its "
                                  "config has `host_key_hash` (docs/host-guide.md).")
    if who.problem is not None:
        return answers.reject(judge, parsed, rec, [who.problem], game_id if known else None, None,
                              {"document": shown}, reason=who.reason)
    assert isinstance(game_id, str)
    name, values, problems = read_fields(doc)
    last = judge.store.command_seq(game_id, replay.HOST)
    seq = doc.get("seq")
    if not problems and "seq" in doc:
        problems = [p for p in [envelope.sequence_problem(seq, last)] if p]
    elif not problems and _once(name):
        problems = [p for p in [replay.repeated(judge, game_id, replay.HOST, doc, last + 1)] if p]
    if problems:
        return answers.reject(judge, parsed, rec, problems, game_id, None, {"document": shown})
    try:
        done = run(judge, game_id, name, reason=values.get("reason", ""), hours=values.get("hours"),
                   seat=values.get("seat"), player=values.get("player"), winner=values.get("winner"),
                   abandon=values.get("abandon") is True, to_step=values.get("to_step"),
                   bot=values.get("bot") is True, add=values.get("add"), remove=values.get("remove"),
                   url=values.get("url"))
    except (ValueError, OverflowError) as exc:  # OverflowError: a deadline moved past the year 9999
        said = refusal_in(exc, host_notices.host_translations(judge, game_id))  # the host's language (issue 28)
        issue = Problem(message=str(exc), where="command", code="host.refused",
                        hint="docs/host-guide.md lists the host commands.", params=refusal_params(said))
        return answers.reject(judge, parsed, rec, [issue], game_id, None, {"document": shown})
    iid = rec("host", "", game_id=game_id, result={"document": shown})
    if _once(name) or "seq" in doc:
        replay.record(judge, game_id, replay.HOST, doc, seq if "seq" in doc else None, iid)
    tr = host_notices.host_translations(judge, game_id)  # the host's language (issue 28)
    body = i18n.localize(done.text, tr) + ("\n\n" + tr.gettext("Log witness: %(witness)s") % {
        "witness": done.witness} if done.witness else "")
    text = build.render_notice(wrapped(body), game_id, tr)
    outbox.queue(judge, game_id=game_id, kind="reply", to_addr=parsed.sender, to_name=parsed.sender_name or None,
                 subject=re_subject(parsed.subject), text=text,
                 html=build.html_of_text(tr.gettext("host command %(name)s") % {"name": name}, text,
                                          i18n.language_of(tr)),
                 id_parts=(game_id, "host-reply", *answers.answer_key(parsed)), in_reply_to=parsed.message_id,
                 references=parsed.references, auto="auto-replied")
    return "host"


def refusal_params(said: str | None) -> dict[str, str] | None:
    """The ``params`` of a refused host command's ``host.refused`` (``said``: its reason
    in the host's language, or None when it has none): the reason, and ``why: named``
    when the reason names what to write (a `` `command: resume` `` or `` `winner: east` ``
    in backquotes), so the fix says "write the command the reply names" only then and
    otherwise points to docs/host-guide.md's list (issue 28 lang28e item 5)."""
    if said is None:
        return None
    return {"reason": said, "why": "named"} if "`" in said else {"reason": said}


def _once(name: str) -> bool:
    """Whether host command ``name`` is carried out once per mail (issue 25.8)."""
    found = REGISTRY.host(name)
    return found is not None and found.once

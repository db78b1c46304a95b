"""A seat's request for a past report by mail (``{game, seat, key, history: N | all}``),
answered with that seat's own view (:func:`pbem.service.log.history.history_reply`)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.mail.message import ParsedMail
from pbem.problems import Problem
from pbem.service.base.context import Service
from pbem.service.commands.registry import Field, Guide, MailRequest, Who
from pbem.service.identity import envelope
from pbem.service.log.history import history_reply
from pbem.service.outgoing import answers, ratelimit


def handle_request(judge: Service, parsed: ParsedMail, doc: Mapping[str, Any], rec: answers.Recorder,
                   shown: Mapping[str, Any]) -> str:
    """A seat asks for a past report. Sender and key are checked as for orders; the
    answer is that seat's own view. Returns the inbox status (answered, rejected, held)."""
    checked = envelope.check_envelope(judge, parsed, doc, keys=envelope.HISTORY_KEYS)
    game_id, seat, issues = checked.game_id, checked.seat, checked.issues
    if checked.held:
        return answers.reject(judge, parsed, rec, issues, game_id, seat, {"document": shown}, status="held",
                              reason=checked.reason)
    wanted = doc.get("history")
    if not issues and not (wanted == "all" or (isinstance(wanted, int) and not isinstance(wanted, bool))):
        issues = [Problem(message=f"`history` must be a step number or `all`; found {wanted!r}.", where="history",
                        code="history.value", hint="e.g. `history: 3` or `history: all`")]
    if issues:
        return answers.reject(judge, parsed, rec, issues, game_id, seat, {"document": shown},
                              reason=checked.reason or issues[0].code)
    assert game_id is not None and seat is not None
    subject, text, html = history_reply(judge.store, game_id, seat, None if wanted == "all" else wanted)
    iid = rec("answered", "history", game_id=game_id, seat=seat, result={"document": shown})
    ratelimit.deliver(judge, parsed, iid, game_id=game_id, subject=subject, text=text, html=html,
                      id_parts=(game_id, "history", *answers.answer_key(parsed)))
    return "answered"


REQUEST = MailRequest(
    name="history", who=Who.SEAT, fields=(Field("history", "any", "a step number, or `all`"),),
    limit=None, logs=(),
    help="A past report (`history: N`) or the seat's whole history (`history: all`), in its own view.",
    guide=Guide("player-guide.md", "Past reports"), process=handle_request)

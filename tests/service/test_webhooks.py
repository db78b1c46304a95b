"""Webhooks through the real mail path and a local HTTP server (issue 29, item 5): a
seat sets ``webhook:`` by ``command: preferences``; its next prompt is both mailed and
POSTed as JSON (``game``, ``step``, ``seat``, ``waiting``, ``deadline``, ``content``,
``text``); a URL that is not http(s) is refused with ``command.webhook``; with the HTTP
server answering 500, then down, the mail still goes out and the webhook's outbox row
retries, then gives up and the host is told. ``pbem verify`` passes after."""
from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.mail.smtp import MAX_ATTEMPTS
from tests.conftest import KEYS, SEATS
from tests.service.cmdmail import start, text
from tests.service.helpers import orders_body


class Hooks:
    """An HTTP server on 127.0.0.1 that records each POST (path, JSON body) and
    answers ``status[0]``."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict]] = []
        self.status = [204]
        hooks = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                assert self.headers.get_content_type() == "application/json"
                hooks.posts.append((self.path, json.loads(raw.decode("utf-8"))))
                self.send_response(hooks.status[0])
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, seat: str) -> str:
        return f"http://127.0.0.1:{self.port}/hook/{seat}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _prefs(m, seat: str, url: str, outcome: str = "answered") -> str:  # noqa: ANN001
    n = len([x for x in m.inbox(seat) if "Re: command" in str(x["Subject"])])
    m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "preferences", "webhook": url})
    assert list(m.cycle().values()) == [outcome]
    return text(m.mails(seat, "Re: command", n + 1)[-1])


def _prompts(m, seat: str) -> list:  # noqa: ANN001
    return [x for x in m.inbox(seat) if "your move" in str(x["Subject"])]


def _webhook_rows(m) -> list[dict]:  # noqa: ANN001
    return [dict(r) for r in m.judge.store.db["outbox"].rows_where("kind = 'webhook'", order_by="id")]


def test_a_prompt_is_mailed_and_posted_and_a_dead_webhook_never_stops_mail(tmp_path: Path) -> None:
    hooks = Hooks()
    m = start(tmp_path)
    try:
        seat0 = SEATS[0]
        refused = _prefs(m, seat0, "ftp://127.0.0.1/hook", "rejected")
        assert "code: command.webhook" in refused and "URLs are taken" in " ".join(refused.split())
        assert "webhook: off" in _prefs(m, seat0, "https://user:pw@127.0.0.1/hook", "rejected")
        for seat in SEATS:
            reply = _prefs(m, seat, hooks.url(seat))
            assert f"webhook: {hooks.url(seat)}" in reply
        assert hooks.posts == [] and _webhook_rows(m) == []  # setting it posts nothing by itself
        secrets = [*KEYS.values(), m.judge.store.game("g1")["seed"]]

        before = {s: len(_prompts(m, s)) for s in SEATS}
        mover, body = orders_body(m.judge, seed=1)
        m.send(mover, body, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        state = m.judge.state("g1")
        waiting = {d.seat: d.kind for d in rules.pending(state)}
        assert waiting
        for seat, kind in waiting.items():
            prompt = m.mails(seat, "your move", before[seat] + 1)[-1]
            assert f"step {state.step}" in str(prompt["Subject"])
            posted = [doc for path, doc in hooks.posts if path == f"/hook/{seat}"]
            assert len(posted) == 1, hooks.posts
            doc = posted[0]
            assert set(doc) == {"game", "step", "seat", "waiting", "deadline", "content", "text"}
            assert (doc["game"], doc["step"], doc["seat"], doc["waiting"]) == ("g1", state.step, seat, kind)
            due = next(d["due_at"] for d in m.judge.store.open_deadlines("g1") if d["seat"] == seat)
            assert datetime.fromisoformat(doc["deadline"]) == datetime.fromisoformat(due).replace(microsecond=0)
            assert doc["deadline"].endswith("+00:00")
            assert doc["content"] == doc["text"] and "\n" not in doc["text"]
            assert "g1" in doc["text"] and seat in doc["text"] and f"step {state.step}" in doc["text"]
        assert not [s for s in secrets if s in json.dumps(hooks.posts)]
        assert {r["status"] for r in _webhook_rows(m)} == {"sent"}
        assert len(hooks.posts) == len(waiting)  # only seats with a prompt were posted to

        # the chat server fails: 500, then it is gone; mail goes on, the row retries, gives up
        hooks.status[0] = 500
        n_posts = len(hooks.posts)
        before = {s: len(_prompts(m, s)) for s in SEATS}
        mover, body = orders_body(m.judge, seed=2)
        m.send(mover, body, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        state = m.judge.state("g1")
        waiting = {d.seat: d.kind for d in rules.pending(state)}
        for seat in waiting:  # the mail went out although the webhook answered 500
            assert m.mails(seat, "your move", before[seat] + 1)[-1]
        assert len(hooks.posts) == n_posts + len(waiting)  # each was tried once
        rows = [r for r in _webhook_rows(m) if r["status"] == "pending"]
        assert len(rows) == len(waiting) and all(r["attempts"] == 1 and "500" in r["last_error"] for r in rows)
        hooks.stop()  # connection refused from now on
        host_before = len(m.inbox("host"))
        for _ in range(MAX_ATTEMPTS):  # retried with the mail's backoff (the clock goes on an hour each time)
            m.offset[0] += timedelta(hours=1)
            m.judge.flush_outbox()
        rows = [r for r in _webhook_rows(m) if r["id"] in {x["id"] for x in rows}]
        assert all(r["status"] == "failed" and r["attempts"] == MAX_ATTEMPTS for r in rows), rows
        assert all("Connection refused" in r["last_error"] or "URLError" in r["last_error"] for r in rows)
        notice = [x for x in m.mails("host", "webhook could not be reached", 1)]
        assert len(m.inbox("host")) > host_before and len(notice) == 1
        told = text(notice[0])
        for seat in waiting:
            assert f"the webhook of seat {seat} of g1" in told
        assert f"/hook/" not in told  # a chat webhook's path is its secret: only scheme and host are shown
        assert not [r for r in m.judge.store.db["outbox"].rows_where("kind != 'webhook' AND status != 'sent'")]

        # off: no more posts
        for seat in SEATS:
            assert "webhook: off" in _prefs(m, seat, "off")
        count = len(_webhook_rows(m))
        mover, body = orders_body(m.judge, seed=3)
        m.send(mover, body, subject="orders")
        assert list(m.cycle().values()) == ["applied"]
        assert len(_webhook_rows(m)) == count
        # the URL (a chat's secret) is never in the log, which is published once the game is over:
        # the log's PreferencesSet names its fingerprint only
        logged = [e.data for e in m.judge.store.events("g1")]
        assert not any("/hook/" in json.dumps(d) for d in logged)
        assert any(str((d.get("prefs") or {}).get("webhook", "")).startswith("sha256:") for d in logged)
    finally:
        path = m.path
        m.close()
        hooks.server.server_close()
    v = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert v.exit_code == 0 and "replay equals live state" in v.output, v.output


def test_a_deadline_reminder_is_posted_too(tmp_path: Path) -> None:
    hooks = Hooks()
    m = start(tmp_path)
    try:
        seat = rules.pending(m.judge.state("g1"))[0].seat
        m.send(seat, {"game": "g1", "seat": seat, "key": KEYS[seat], "command": "preferences",
                      "webhook": hooks.url(seat), "language": "es"})
        assert list(m.cycle().values()) == ["answered"]
        assert hooks.posts == []
        row = next(d for d in m.judge.store.open_deadlines("g1") if d["seat"] == seat)
        due = datetime.fromisoformat(row["due_at"])
        m.offset[0] += due - m.judge.clock() - timedelta(minutes=5)  # inside the reminder's window, before the deadline
        m.cycle()
        reminder = m.mails(seat, "recordatorio", 1)[-1]  # the mail goes as before, in the seat's language
        assert f"paso {row['step']}" in str(reminder["Subject"])
        assert len(hooks.posts) == 1, hooks.posts
        path, doc = hooks.posts[0]
        assert path == f"/hook/{seat}"
        assert (doc["game"], doc["step"], doc["seat"], doc["waiting"]) == ("g1", row["step"], seat, row["kind"])
        assert datetime.fromisoformat(doc["deadline"]) == due.replace(microsecond=0)
        assert doc["text"] == doc["content"] == (f"[g1] paso {row['step']}: asiento {seat}, te toca ({row['kind']}), "
                                                 f"plazo {doc['deadline']}.")  # in the seat's language
        m.cycle()
        assert len(hooks.posts) == 1  # once per reminder
    finally:
        path = m.path
        m.close()
        hooks.stop()
    v = CliRunner().invoke(main, ["verify", "-c", str(path), "g1"])
    assert v.exit_code == 0 and "replay equals live state" in v.output, v.output


def test_only_http_and_https_urls_are_taken() -> None:
    from pbem.service.outgoing.webhooks import url_problem
    for good in ("https://discord.com/api/webhooks/1/abc", "http://127.0.0.1:8080/hook", "HTTPS://hooks.slack.com/x"):
        assert url_problem(good) is None, good
    for bad in ("ftp://x.org/h", "file:///etc/passwd", "javascript:alert(1)", "https://", "https://a b/",
                "https://u:p@x.org/", "mailto:a@b.c", "https://x.org:99999999/", "x" * 3000, "gopher://x/"):
        assert url_problem(bad), bad


def test_the_host_sets_a_webhook_and_gets_its_notices_there(tmp_path: Path) -> None:
    """Issue 29's trial, finding 4: only seats could set a webhook. The host sets one by
    mail (`command: webhook`, `url:`); civil disorder and a substitute asking (a person
    must act) are then both mailed and posted to it, with nothing of the notices' bodies
    (no address); `url: off` stops it; a webhook that is down never stops the mail."""
    from tests.mailservers import start_pymap
    from tests.service.tablemail import flat, new_table
    from tests.service.test_substitutes import STRANGER, _fall

    from tests.conftest import ACCOUNTS

    hooks = Hooks()
    server = start_pymap(tmp_path / "pymap", ACCOUNTS)
    table = None
    try:
        table, host_key = new_table(tmp_path, server, extra=("--setting", "nmr_limit=1",
                                                             "--setting", "substitutes=approve"))

        def host(body: str, subject: str) -> str:
            table.send("host@pbem.localhost", f"game: g2\nhost: {host_key}\ncommand: webhook\n{body}", subject)
            table.cycle()
            table.flush()
            return flat(table.mails("host", f"Re: {subject}")[0])

        refused = host("url: ftp://127.0.0.1/hook\n", "bad hook")
        assert "only http:// and https:// URLs are taken" in refused and "host.refused" in refused
        said = host(f"url: {hooks.url('host')}\n", "hook")
        assert "is now also posted to http://127.0.0.1/…" in said
        assert hooks.url("host") not in said  # the URL's path is the chat's secret: not even in the receipt
        assert "are also posted to http://127.0.0.1/…" in host("", "which hook")
        assert not [e for e in table.judge.store.events("g2") if hooks.url("host") in json.dumps(e.data)]

        seat = _fall(table)  # civil disorder: a host notice, mailed and posted
        assert table.mails("host", "host notice: civil disorder")
        posted = [doc for path, doc in hooks.posts if path == "/hook/host"]
        assert [d["notice"] for d in posted] == ["civil disorder"], posted
        assert posted[0]["content"] == posted[0]["text"] == "[g2] host notice: civil disorder"
        assert posted[0]["game"] == "g2" and posted[0]["waiting"] == "host" and posted[0]["seat"] is None
        assert "@" not in json.dumps(posted[0])  # no address of the notice's body

        # a person must act: a substitute asks for the seat (substitutes: approve); the webhook is down
        hooks.stop()
        table.send(STRANGER, "game: g2\ncommand: standby\nstandby: true\n", "standby")
        table.cycle()
        table.flush()
        table.send(STRANGER, f"game: g2\ncommand: take\ntake: {seat}\n", "take")
        table.cycle()
        table.flush()
        assert table.mails("host", "host notice: substitute asks")  # the mail goes whatever the webhook does
        rows = [r for r in _webhook_rows_of(table) if r["subject"] == "[g2] host notice: substitute asks"]
        assert len(rows) == 1 and rows[0]["status"] == "pending" and rows[0]["attempts"] == 1, rows

        assert "by mail only from now on" in host("url: off\n", "no hook")
        assert table.judge.store.host_webhook("host@pbem.localhost") is None
    finally:
        if table is not None:
            table.close()
        server.stop()
        try:
            hooks.stop()
        except Exception:  # noqa: BLE001 - stopped already
            pass


def _webhook_rows_of(table) -> list[dict]:  # noqa: ANN001
    return [dict(r) for r in table.judge.store.db["outbox"].rows_where("kind = 'webhook'", order_by="id")]

"""TLS modes against real servers on loopback with a throw-away self-signed certificate:
SMTP with STARTTLS (RFC 3207) and implicit TLS (RFC 8314), IMAP with STARTTLS (pymap)
and implicit TLS (Dovecot's imaps listener, when installed) — issue 2, items 4 and 5."""
from __future__ import annotations

import asyncio
import mailbox
import shutil
import ssl
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiosmtplib
import pytest
import yaml
from aiosmtpd.controller import Controller

from pbem.config import ConfigError, ImapConfig, MailServer, load_config
from pbem.devmail import MaildirHandler, free_port, wait_for_port, write_pymap_users
from pbem.mail.imap import ImapPoller
from pbem.mail.smtp import send_raw
from pbem.service.outgoing.faults import certificate_hint
from pbem.store import Store
from tests import mailservers

MESSAGE = b"From: north@pbem.localhost\r\nTo: judge@pbem.localhost\r\nSubject: tls\r\n" \
          b"Message-ID: <tls-test@players.test>\r\n\r\nover TLS\r\n"


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("cert")
    crt, key = d / "cert.pem", d / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(crt)], check=True, capture_output=True)
    return crt, key


def _server_ctx(cert: tuple[Path, Path]) -> ssl.SSLContext:
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(str(cert[0]), str(cert[1]))
    return ctx


def _smtp(port: int, tls: str) -> MailServer:
    return MailServer(host="127.0.0.1", port=port, tls=tls, user=None, password=None, verify_tls=False)


def _delivered(root: Path) -> list[bytes]:
    box = mailbox.Maildir(str(root / "judge"), create=True)
    return [box.get_bytes(k) for k in box.iterkeys()]


def test_smtp_starttls(tmp_path: Path, cert) -> None:
    port = free_port()
    ctl = Controller(MaildirHandler(tmp_path, {"judge": "x"}), hostname="127.0.0.1", port=port,
                     tls_context=_server_ctx(cert), require_starttls=True)
    ctl.start()
    try:
        with pytest.raises(aiosmtplib.SMTPException):  # the server insists on STARTTLS
            asyncio.run(send_raw(_smtp(port, "none"), "judge@pbem.localhost", "judge@pbem.localhost", MESSAGE))
        assert _delivered(tmp_path) == []
        asyncio.run(send_raw(_smtp(port, "starttls"), "judge@pbem.localhost", "judge@pbem.localhost", MESSAGE))
    finally:
        ctl.stop()
    assert len(_delivered(tmp_path)) == 1


def test_smtp_implicit_tls(tmp_path: Path, cert) -> None:
    port = free_port()
    ctl = Controller(MaildirHandler(tmp_path, {"judge": "x"}), hostname="127.0.0.1", port=port,
                     ssl_context=_server_ctx(cert))
    ctl.start()
    try:
        asyncio.run(send_raw(_smtp(port, "implicit"), "judge@pbem.localhost", "judge@pbem.localhost", MESSAGE))
        with pytest.raises(aiosmtplib.SMTPException):  # certificate checks are on by default
            verified = MailServer("127.0.0.1", port, "implicit", None, None, verify_tls=True)
            asyncio.run(send_raw(verified, "judge@pbem.localhost", "judge@pbem.localhost", MESSAGE, timeout=5))
    finally:
        ctl.stop()
    assert len(_delivered(tmp_path)) == 1


def _poll_one(tmp_path: Path, cfg: ImapConfig) -> dict[int, str]:
    seen: list[bytes] = []

    def handler(raw: bytes, uidvalidity: int, uid: int, folder: str) -> str:
        seen.append(raw)
        return "handled"

    poller = ImapPoller(cfg, Store(tmp_path / "db.sqlite"), handler)
    poller.connect()
    try:
        result = poller.poll_once(reconcile=True).handled
    finally:
        poller.close()
    assert b"over TLS" in seen[0]
    return result


@contextmanager
def _pymap_tls(tmp_path: Path, cert: tuple[Path, Path]) -> Iterator[int]:
    """pymap with STARTTLS on a free port, MESSAGE in the judge's INBOX; yields the port."""
    root = tmp_path / "mail"
    write_pymap_users(root, {"judge": "jpw"})
    mailbox.Maildir(str(root / "judge")).add(MESSAGE)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from pymap.main import main; sys.exit(main())",
                             "--host", "127.0.0.1", "--port", str(port), "--cert", str(cert[0]),
                             "--key", str(cert[1]), "maildir", str(root)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


def test_imap_starttls_with_pymap(tmp_path: Path, cert) -> None:
    with _pymap_tls(tmp_path, cert) as port:
        cfg = ImapConfig("127.0.0.1", port, "starttls", "judge", "jpw", verify_tls=False,
                         processed_folder="Processed")
        assert list(_poll_one(tmp_path, cfg).values()) == ["handled"]


@pytest.mark.skipif(not mailservers.DOVECOT, reason="dovecot-imapd is not installed here (CI installs it)")
def test_imap_implicit_tls_with_dovecot(tmp_path: Path, cert) -> None:
    server = mailservers.start_dovecot(None, {"judge": "jpw"}, tls_cert=cert)
    try:
        mailbox.Maildir(str(server.root / "judge")).add(MESSAGE)
        mailservers.own_maildirs(server)
        cfg = ImapConfig("127.0.0.1", server.imaps_port, "implicit", "judge", "jpw", verify_tls=False,
                         processed_folder="Processed")
        assert list(_poll_one(tmp_path, cfg).values()) == ["handled"]
    finally:
        server.stop()


def test_a_private_ca_is_trusted_through_ca_file_and_the_error_says_so(tmp_path: Path, cert) -> None:
    """Issue 30, item 8: `ca_file` trusts a self-signed or private-CA certificate with the
    check on; without it the fault names `smtp.ca_file`."""
    port = free_port()
    ctl = Controller(MaildirHandler(tmp_path, {"judge": "x"}), hostname="127.0.0.1", port=port,
                     ssl_context=_server_ctx(cert))
    ctl.start()
    try:
        with pytest.raises(aiosmtplib.SMTPException) as refused:
            asyncio.run(send_raw(MailServer("127.0.0.1", port, "implicit", None, None, verify_tls=True),
                                 "judge@pbem.localhost", "judge@pbem.localhost", MESSAGE, timeout=5))
        hint = certificate_hint("smtp", refused.value)
        assert "`smtp.ca_file`" in hint and "not trusted" in hint
        trusted = MailServer("127.0.0.1", port, "implicit", None, None, verify_tls=True, ca_file=str(cert[0]))
        asyncio.run(send_raw(trusted, "judge@pbem.localhost", "judge@pbem.localhost", MESSAGE, timeout=5))
    finally:
        ctl.stop()
    assert len(_delivered(tmp_path)) == 1


def test_imap_starttls_verified_against_ca_file(tmp_path: Path, cert) -> None:
    with _pymap_tls(tmp_path, cert) as port:
        untrusted = ImapConfig("127.0.0.1", port, "starttls", "judge", "jpw", processed_folder="Processed")
        with pytest.raises(ssl.SSLCertVerificationError) as refused:
            _poll_one(tmp_path, untrusted)
        assert "`imap.ca_file`" in certificate_hint("imap", refused.value)
        cfg = ImapConfig("127.0.0.1", port, "starttls", "judge", "jpw", processed_folder="Processed",
                         ca_file=str(cert[0]))
        assert list(_poll_one(tmp_path, cfg).values()) == ["handled"]


def test_ca_file_in_the_config_is_read_beside_it_and_must_exist(tmp_path: Path, cert) -> None:
    shutil.copy(cert[0], tmp_path / "ca.pem")
    raw = {"judge": {"address": "judge@example.org"}, "imap": {"host": "127.0.0.1", "ca_file": "ca.pem"},
           "smtp": {"host": "127.0.0.1", "ca_file": "missing.pem"}}
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(raw))
    with pytest.raises(ConfigError) as bad:
        load_config(tmp_path / "c.yaml")
    assert bad.value.problems == [f"smtp.ca_file: no file {tmp_path / 'missing.pem'} (the CA certificate to trust, PEM)"]
    raw["smtp"].pop("ca_file")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(raw))
    assert load_config(tmp_path / "c.yaml").imap.ca_file == str(tmp_path / "ca.pem")

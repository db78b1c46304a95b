"""Port choice for the embedded mail server and the tests (issue 24, finding 16): a test
once failed because `smtp_port` and `imap_port` were both 60065 — `free_port()` closed
its socket, so two calls could return the same port. Ports handed out are now never
handed out again by the same process, a pair is chosen while both are held, a server
whose chosen port was taken meanwhile starts on another, and a config naming one port
for both servers is refused."""
from __future__ import annotations

import smtplib
import socket
from pathlib import Path

import pytest
import yaml

from pbem import devmail
from pbem.config import ConfigError, load_config
from pbem.devmail import DevMail, free_port
from tests.service.helpers import FaultySMTP


def test_free_port_never_hands_out_the_same_port_twice() -> None:
    # the kernel picks a free port at random: 1,000 picks repeat one with near certainty
    # (birthday bound over ~28,000 ports), which is how two servers got the same port
    ports = [free_port() for _ in range(1000)]
    assert len(set(ports)) == len(ports)


def test_free_ports_are_distinct_and_free() -> None:
    ports = devmail.free_ports(4)
    assert len(set(ports)) == 4
    for port in ports:
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))  # free right now: binds


def test_a_chosen_port_taken_meanwhile_is_retried_on_another() -> None:
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", 0))
    squatter.listen()
    taken = squatter.getsockname()[1]
    offered = iter([taken])  # the first choice is the squatter's port, as in a race

    def choose() -> int:
        return next(offered, 0) or free_port()

    def start(port: int) -> FaultySMTP:
        return FaultySMTP().start(port)
    try:
        smtp = devmail.listen_on_free_port(start, choose=choose)
        try:
            assert smtp.port != taken
            with smtplib.SMTP("127.0.0.1", smtp.port, timeout=10) as client:
                assert client.noop()[0] == 250
        finally:
            smtp.stop()
    finally:
        squatter.close()


def test_devmail_with_chosen_ports_gets_two_distinct_ones(tmp_path: Path) -> None:
    servers = [DevMail(tmp_path / f"m{i}", {"judge": "jpw"}, serve_imap=False).start() for i in range(3)]
    try:
        taken = [p for d in servers for p in (d.smtp_port, d.imap_port)]
        assert len(set(taken)) == len(taken)
    finally:
        for d in servers:
            d.stop()


def test_devmail_refuses_one_port_for_both_servers(tmp_path: Path) -> None:
    port = free_port()
    with pytest.raises(Exception) as caught:
        DevMail(tmp_path / "m", {"judge": "jpw"}, smtp_port=port, imap_port=port).start()
    assert "both" in str(caught.value) and str(port) in str(caught.value)


def test_the_config_refuses_one_port_for_both_embedded_servers(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump({
        "judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "db.sqlite"),
        "imap": {"host": "127.0.0.1", "port": 60065, "user": "judge", "password": "jpw"},
        "smtp": {"host": "127.0.0.1", "port": 60065},
        "devmail": {"enabled": True, "accounts": {"judge": "jpw"}}}))
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert any("60065" in str(p) and "devmail" in str(p) for p in caught.value.problems), caught.value.problems


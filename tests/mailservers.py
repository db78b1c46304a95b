"""Real mail servers on loopback for the integration tests.

- ``pymap``: :class:`pbem.devmail.DevMail` (aiosmtpd delivering into maildirs + pymap).
- ``dovecot``: the same aiosmtpd delivery, with Debian's Dovecot serving the maildirs
  over IMAP (started as a private instance with its own config in a temp folder). Only
  when the ``dovecot`` binary is installed; CI installs ``dovecot-imapd``.
"""
from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from pbem.devmail import DevMail, free_port, wait_for_port

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else None)

DOVECOT_CONF = """\
base_dir = {root}/run
state_dir = {root}/run/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
{ssl}
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{maildir}/%n
first_valid_uid = 1
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%n {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={maildir}/%n
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
  }}
}}
service anvil {{
  chroot =
}}
"""


@dataclass
class MailServer:
    """A running SMTP + IMAP pair on loopback with one account per name."""

    kind: str
    root: Path
    accounts: dict[str, str]
    dev: DevMail
    smtp_port: int
    imap_port: int
    _dovecot_conf: Path | None = None
    imaps_port: int = 0

    def messages(self, account: str) -> list[bytes]:
        """Raw messages delivered to ``account`` (its INBOX), oldest first."""
        return self.dev.messages(account)

    def stop(self) -> None:
        """Stop both servers."""
        self.dev.stop()
        if self._dovecot_conf is not None:
            if not _kill_dovecot(self._dovecot_conf.parent / "run" / "master.pid"):
                subprocess.run(["doveadm", "-c", str(self._dovecot_conf), "stop"], capture_output=True, check=False)
                time.sleep(0.3)
            shutil.rmtree(self._dovecot_conf.parent, ignore_errors=True)

    def restart_imap(self) -> None:
        """Kill the IMAP server and start it again (connections drop)."""
        if self.kind == "pymap":
            self.dev.restart_imap()
        else:
            assert self._dovecot_conf is not None
            subprocess.run(["doveadm", "-c", str(self._dovecot_conf), "stop"], capture_output=True, check=False)
            time.sleep(0.5)
            subprocess.run([DOVECOT, "-c", str(self._dovecot_conf)], check=True)
            wait_for_port(self.imap_port)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting for its parent does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def _kill_dovecot(pid_file: Path) -> bool:
    """Kill the test's own Dovecot instance (its master, whose pid is in ``pid_file``, and
    the master's process group) at once and wait until the master is gone; False when
    there is no pid file. A graceful stop waits 2.5 s (``doveadm stop``) to 6 s (SIGTERM)
    for nothing a throw-away test server needs; the instance's folder is removed next."""
    try:
        pid = int(pid_file.read_text().split()[0])
    except (FileNotFoundError, ValueError, IndexError):
        return False
    try:
        os.killpg(pid, signal.SIGKILL) if os.getpgid(pid) == pid else os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return True
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    return True


def start_pymap(root: Path, accounts: dict[str, str]) -> MailServer:
    """aiosmtpd + pymap over ``root``."""
    dev = DevMail(root, accounts).start()
    return MailServer("pymap", root, accounts, dev, dev.smtp_port, dev.imap_port)


def own_maildirs(server: MailServer) -> None:
    """Give Dovecot's user (nobody) the maildirs, after files were added as root."""
    uid, gid = pwd.getpwnam("nobody").pw_uid, grp.getgrnam("nogroup").gr_gid
    for dirpath, _dirs, files in os.walk(server.root):
        os.chown(dirpath, uid, gid)
        for f in files:
            os.chown(os.path.join(dirpath, f), uid, gid)


def start_dovecot(root: Path | None, accounts: dict[str, str],
                  tls_cert: tuple[Path, Path] | None = None) -> MailServer:
    """aiosmtpd delivering into maildirs served by a private Dovecot instance.

    Dovecot's processes run as ``nobody`` and must reach every folder on the way, so
    the instance lives in its own world-readable temp folder (pytest's tmp_path is
    private to root); ``root`` is ignored and removed again by :meth:`MailServer.stop`.
    """
    assert DOVECOT, "dovecot is not installed"
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    uid, gid = pwd.getpwnam("nobody").pw_uid, grp.getgrnam("nogroup").gr_gid
    maildir = root / "mail"
    (root / "run").mkdir(parents=True, exist_ok=True)
    maildir.mkdir(parents=True, exist_ok=True)
    os.chmod(root, 0o755)
    (root / "passwd").write_text("".join(f"{u}:{{PLAIN}}{p}::::::\n" for u, p in accounts.items()))
    port = free_port()
    imaps_port = free_port() if tls_cert else 0
    if tls_cert:
        for src, name in zip(tls_cert, ("cert.pem", "key.pem"), strict=True):
            shutil.copy(src, root / name)
        ssl_conf = f"ssl = yes\nssl_cert = <{root}/cert.pem\nssl_key = <{root}/key.pem"
    else:
        ssl_conf = "ssl = no"
    conf = root / "dovecot.conf"
    conf.write_text(DOVECOT_CONF.format(root=root, maildir=maildir, uid=uid, gid=gid, port=port,
                                        imaps_port=imaps_port, ssl=ssl_conf))
    dev = DevMail(maildir, accounts, owner=(uid, gid), serve_imap=False).start()
    server = MailServer("dovecot", maildir, accounts, dev, dev.smtp_port, port, conf, imaps_port)
    own_maildirs(server)  # DevMail created the maildirs as root; Dovecot runs as nobody
    subprocess.run([DOVECOT, "-c", str(conf)], check=True)
    wait_for_port(port)
    if imaps_port:
        wait_for_port(imaps_port)
    deadline = time.monotonic() + 5  # the pid file :meth:`MailServer.stop` kills by
    while not (root / "run" / "master.pid").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return server

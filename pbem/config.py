"""Loading and checking ``config.yaml`` (see ``config.example.yaml`` for every key).

Loading collects *every* problem with its path in the file, e.g.
``games[0].seats[2].email: not an email address``, and raises :class:`ConfigError`
carrying the list. Secrets may come from the environment: any string written
``${NAME}`` is replaced by the environment variable NAME, and ``password_file`` reads
the password from a file. Relative paths are taken relative to the config file.

Values that end up in mail headers (names, addresses, the mail domain) are refused when
they hold a line break or another control character: written into a header they would
inject fields or make composing every mail of the game raise (RFC 5322 section 2.2).
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pbem.gamesettings import GameSettings, duration, parse_settings
from pbem.keys import is_key_hash
from pbem.mail.headers import fold_address, normalise_address

TLS_MODES = ("none", "starttls", "implicit")
LOOPBACK = ("127.0.0.1", "localhost", "::1")
_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(B|KB|MB)?\s*", re.IGNORECASE)
_SIZE_UNITS = {"b": 1, "kb": 1_000, "mb": 1_000_000}
_DOMAIN = re.compile(r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?",
                     re.IGNORECASE)


class ConfigError(ValueError):
    """The config file is unusable; ``problems`` lists every problem as ``path: what``."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("config has problems:\n" + "\n".join(f"  {p}" for p in problems))


@dataclass(frozen=True)
class MailServer:
    """An IMAP or SMTP endpoint. ``tls`` is none | starttls | implicit (RFC 8314)."""

    host: str
    port: int
    tls: str
    user: str | None
    password: str | None
    verify_tls: bool = True


@dataclass(frozen=True)
class ImapConfig(MailServer):
    """The judge's mailbox: orders arrive in ``folder`` and are moved to
    ``processed_folder`` after the database commit (or flagged when it is empty)."""

    folder: str = "INBOX"
    processed_folder: str | None = "Processed"
    #: mail that broke the judge or is too large is moved here (None: like processed mail)
    quarantine_folder: str | None = "Quarantine"
    idle: bool = True
    poll_interval: float = 30.0
    idle_renew: float = 25 * 60.0


@dataclass(frozen=True)
class SeatConfig:
    """One seat of a game: its name (north/east/south/west), player, address, key hash."""

    seat: str
    player: str
    email: str
    key_hash: str


@dataclass(frozen=True)
class GameConfig:
    """A game hosted by this judge. ``pack`` is "builtin" or a path to an exported pack."""

    id: str
    seats: tuple[SeatConfig, ...]
    pack: str = "builtin"
    host_email: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the host's key hash (``pbem key new``): host commands by mail need the key
    host_key_hash: str | None = None
    #: table settings: time zone, allowed days, grace, press … (:mod:`pbem.gamesettings`)
    settings: GameSettings = field(default_factory=GameSettings)


@dataclass(frozen=True)
class DevmailConfig:
    """The embedded local mail server (``pbem devmail``): aiosmtpd + pymap on loopback."""

    enabled: bool
    maildir: Path
    smtp_port: int
    imap_port: int
    accounts: Mapping[str, str]
    domain: str


@dataclass(frozen=True)
class Config:
    """The whole configuration, checked."""

    path: Path
    judge_address: str
    judge_name: str
    database: Path
    archive_dir: Path
    imap: ImapConfig
    smtp: MailServer
    devmail: DevmailConfig
    deadlines: Mapping[str, float]
    games: tuple[GameConfig, ...]
    reply_rate_per_hour: int = 5
    seat_reply_rate_per_hour: int = 30
    #: answers an hour to all addresses not registered for a seat, together (break-it 5)
    stranger_replies_per_hour: int = 60
    map_attachment: bool = True
    #: mails larger than this (bytes) are refused before parsing (``"10MB"``, ``500KB``)
    max_message_bytes: int = 10_000_000
    #: our receiving server's authserv-id (RFC 8601); None: Authentication-Results unused
    authserv_id: str | None = None
    #: refuse mail whose From domain our server did not authenticate (SPF/DKIM/DMARC)
    require_authentication: bool = False

    def game(self, game_id: str) -> GameConfig | None:
        """Return the game with ``game_id`` or None."""
        return next((g for g in self.games if g.id == game_id), None)


#: ``"72h"``, ``"30m"``, ``"2d"``, ``"45s"`` or seconds, in seconds (ValueError otherwise):
#: one parser for the config and the per-game settings
parse_duration = duration


def parse_size(value: Any) -> int:
    """Parse ``"10MB"``, ``"500KB"``, ``"2000B"`` or a number of bytes into bytes (decimal
    units). Raises ValueError with a readable message for anything else."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    if isinstance(value, str):
        m = _SIZE.fullmatch(value)
        if m and float(m.group(1)) > 0:
            return int(float(m.group(1)) * _SIZE_UNITS[(m.group(2) or "b").lower()])
    raise ValueError(f"not a size: {value!r} (write e.g. 10MB, 500KB)")


def is_email(value: Any) -> bool:
    """True when ``value`` is a plain addr-spec such as ``north@example.org`` (RFC 5322
    section 3.4.1), exactly as :func:`pbem.mail.headers.normalise_address` accepts a
    sender: so every seat address can be recognised in ``From:``."""
    return isinstance(value, str) and value == value.strip() and normalise_address(value) is not None


def header_safe_problem(value: Any) -> str | None:
    """Why ``value`` cannot go into a mail header (a line break or another control
    character, RFC 5322 section 2.2), or None when it can."""
    if not isinstance(value, str):
        return None
    bad = sorted({ch for ch in value if not ch.isprintable() and ch != " "})
    if not bad:
        return None
    shown = ", ".join(repr(ch) for ch in bad[:3])
    return (f"contains a line break or control character ({shown}); names and addresses "
            "are written into mail headers, so they must be one line of printable text")


class _Checker:
    """Collects problems while reading a nested mapping."""

    def __init__(self, base: Path):
        self.problems: list[str] = []
        self.base = base

    def add(self, path: str, msg: str) -> None:
        self.problems.append(f"{path}: {msg}")

    def env(self, value: Any, path: str) -> Any:
        if isinstance(value, str):
            def sub(m: re.Match[str]) -> str:
                name = m.group(1)
                if name not in os.environ:
                    self.add(path, f"environment variable {name} is not set")
                    return ""
                return os.environ[name]
            return _ENV.sub(sub, value)
        return value

    def one_line(self, value: Any, path: str) -> None:
        """Refuse a header-bound value with a line break or control character."""
        problem = header_safe_problem(value)
        if problem:
            self.add(path, problem)

    def get(self, mapping: Mapping[str, Any], key: str, path: str, kind: type | tuple[type, ...],
            default: Any = ..., required: bool = False) -> Any:
        full = f"{path}.{key}" if path else key
        if key not in mapping or mapping[key] is None:
            if required or default is ...:
                self.add(full, "missing")
                return None
            return default
        value = self.env(mapping[key], full)
        if kind is int and isinstance(value, str) and value.isdigit():
            value = int(value)
        if isinstance(value, bool) and kind in (int, float, (int, float)):
            self.add(full, f"expected a number, got {value!r}")
            return None
        if not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            self.add(full, f"expected {names}, got {type(value).__name__} {value!r}")
            return None
        return value

    def mapping(self, raw: Any, path: str) -> Mapping[str, Any]:
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            self.add(path, f"expected a mapping, got {type(raw).__name__}")
            return {}
        return raw

    def unknown(self, raw: Mapping[str, Any], allowed: set[str], path: str) -> None:
        for key in raw:
            if key not in allowed:
                self.add(f"{path}.{key}" if path else str(key), f"unknown key (allowed: {', '.join(sorted(allowed))})")

    def path(self, value: str | None) -> Path:
        p = Path(value or ".")
        return p if p.is_absolute() else (self.base / p)

    def port(self, raw: Mapping[str, Any], key: str, path: str, default: Any = ...) -> int:
        port = self.get(raw, key, path, int, default)
        if key in raw and isinstance(port, int) and not 0 < port < 65536:
            self.add(f"{path}.{key}", f"port out of range: {port}")
        return port or 0

    def server(self, raw: Any, path: str, imap: bool) -> dict[str, Any]:
        m = self.mapping(raw, path)
        allowed = {"host", "port", "tls", "user", "password", "password_file", "verify_tls", "allow_plaintext"}
        if imap:
            allowed |= {"folder", "processed_folder", "quarantine_folder", "idle", "poll_interval", "idle_renew"}
        self.unknown(m, allowed, path)
        tls = self.get(m, "tls", path, str, "none")
        if tls not in TLS_MODES:
            self.add(f"{path}.tls", f"must be one of {', '.join(TLS_MODES)}, got {tls!r}")
        password = self.get(m, "password", path, str, None)
        pfile = self.get(m, "password_file", path, str, None)
        if pfile:
            try:
                password = self.path(pfile).read_text(encoding="utf-8").strip()
            except OSError as exc:
                self.add(f"{path}.password_file", f"cannot read {pfile}: {exc.strerror}")
        host = self.get(m, "host", path, str, "127.0.0.1")
        if tls == "none" and host not in LOOPBACK and not self.get(m, "allow_plaintext", path, bool, False):
            self.add(f"{path}.tls", f"`none` would send the password unencrypted to {host}; use starttls or "
                     "implicit (or set allow_plaintext: true if the network path is trusted)")
        out: dict[str, Any] = {
            "host": host,
            "port": self.port(m, "port", path, 143 if imap else 25),
            "tls": tls,
            "user": self.get(m, "user", path, str, None),
            "password": password,
            "verify_tls": self.get(m, "verify_tls", path, bool, True),
        }
        if imap:
            out["folder"] = self.get(m, "folder", path, str, "INBOX")
            out["processed_folder"] = self.get(m, "processed_folder", path, str, None)
            out["quarantine_folder"] = self.get(m, "quarantine_folder", path, str, "Quarantine") or None
            out["idle"] = self.get(m, "idle", path, bool, True)
            for key, dflt in (("poll_interval", "30s"), ("idle_renew", "25m")):
                try:
                    out[key] = parse_duration(m.get(key, dflt))
                except ValueError as exc:
                    self.add(f"{path}.{key}", str(exc))
                    out[key] = parse_duration(dflt)
            if out["idle_renew"] > 29 * 60:
                self.add(f"{path}.idle_renew", "RFC 2177 asks clients to re-issue IDLE at least every 29 minutes")
        return out


_SEATS = ("north", "east", "south", "west")


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and check the config file at ``path``.

    Returns a :class:`Config`. Raises :class:`ConfigError` listing every problem (with its
    path in the file) or a missing/unreadable/unparseable file.
    """
    p = Path(path)
    try:
        raw = yaml.safe_load(p.read_text(encoding="utf-8"))
    except OSError as exc:
        hint = " (start from config.example.yaml: `cp config.example.yaml config.yaml`, or pass " \
               "`-c config.example.yaml`)" if not p.exists() else ""
        raise ConfigError([f"{p}: cannot read: {exc.strerror}{hint}"]) from exc
    except yaml.YAMLError as exc:
        raise ConfigError([f"{p}: not valid YAML: {exc}"]) from exc
    return parse_config(raw, base=p.resolve().parent, path=p)


def _mail_settings(c: _Checker, root: Mapping[str, Any]) -> tuple[int, str | None, bool]:
    """``max_message_bytes``, ``authentication.authserv_id`` and ``.require``, checked."""
    max_bytes = 10_000_000
    if root.get("max_message_bytes") is not None:
        try:
            max_bytes = parse_size(c.env(root["max_message_bytes"], "max_message_bytes"))
        except ValueError as exc:
            c.add("max_message_bytes", str(exc))
    auth = c.mapping(root.get("authentication"), "authentication")
    c.unknown(auth, {"authserv_id", "require"}, "authentication")
    authserv_id = c.get(auth, "authserv_id", "authentication", str, None)
    c.one_line(authserv_id, "authentication.authserv_id")
    require_auth = c.get(auth, "require", "authentication", bool, False)
    if require_auth and not authserv_id:
        c.add("authentication.require", "needs authentication.authserv_id (the id your "
              "receiving server writes in its Authentication-Results headers)")
    return max_bytes, authserv_id, bool(require_auth)


def parse_config(raw: Any, base: Path, path: Path | None = None) -> Config:
    """Check an already-parsed config mapping; see :func:`load_config`."""
    c = _Checker(base)
    root = c.mapping(raw, "(top level)")
    c.unknown(root, {"judge", "database", "archive_dir", "imap", "smtp", "devmail", "deadlines",
                     "games", "reply_rate_per_hour", "seat_reply_rate_per_hour", "stranger_replies_per_hour",
                     "map_attachment",
                     "max_message_bytes", "authentication"}, "")
    judge = c.mapping(root.get("judge"), "judge")
    c.unknown(judge, {"address", "name"}, "judge")
    address = c.get(judge, "address", "judge", str, required=True)
    if address and not is_email(address):
        c.add("judge.address", f"not an email address: {address!r}")
    name = c.get(judge, "name", "judge", str, "pbem judge")
    c.one_line(name, "judge.name")

    imap = c.server(root.get("imap"), "imap", imap=True)
    smtp = c.server(root.get("smtp"), "smtp", imap=False)

    dev = c.mapping(root.get("devmail"), "devmail")
    c.unknown(dev, {"enabled", "maildir", "smtp_port", "imap_port", "accounts", "domain"}, "devmail")
    accounts = c.get(dev, "accounts", "devmail", dict, {})
    for user, pw in (accounts or {}).items():
        if not isinstance(user, str) or not isinstance(pw, str):
            c.add(f"devmail.accounts.{user}", "account names and passwords must be strings")
    devmail = DevmailConfig(
        enabled=c.get(dev, "enabled", "devmail", bool, False),
        maildir=c.path(c.get(dev, "maildir", "devmail", str, "var/devmail")),
        smtp_port=c.port(dev, "smtp_port", "devmail", smtp["port"]),
        imap_port=c.port(dev, "imap_port", "devmail", imap["port"]),
        accounts=dict(accounts or {}),
        domain=c.get(dev, "domain", "devmail", str, "pbem.localhost"),
    )
    if devmail.domain and not _DOMAIN.fullmatch(devmail.domain):
        c.add("devmail.domain", f"not a domain name: {devmail.domain!r}")
    if devmail.enabled and devmail.smtp_port and devmail.smtp_port == devmail.imap_port:
        c.add("devmail.imap_port", f"the embedded SMTP and IMAP servers would both listen on port "
              f"{devmail.smtp_port}; give them two different ports (devmail.smtp_port/imap_port, or "
              "smtp.port/imap.port)")

    dl = c.mapping(root.get("deadlines"), "deadlines")
    deadlines: dict[str, float] = {}
    for key, value in {"player_turn": "72h", "reaction": "24h", "reminder": "24h", **dl}.items():
        try:
            deadlines[str(key)] = parse_duration(value)
        except ValueError as exc:
            c.add(f"deadlines.{key}", str(exc))

    games: list[GameConfig] = []
    raw_games = c.get(root, "games", "", list, [])
    seen_games: set[str] = set()
    for gi, g in enumerate(raw_games or []):
        gp = f"games[{gi}]"
        gm = c.mapping(g, gp)
        c.unknown(gm, {"id", "pack", "seats", "host_email", "host_key_hash", "options", "settings"}, gp)
        gid = c.get(gm, "id", gp, str, required=True)
        if gid is not None:
            if not _ID.fullmatch(gid):
                c.add(f"{gp}.id", f"use lowercase letters, digits, '.', '_' or '-' (got {gid!r})")
            if gid in seen_games:
                c.add(f"{gp}.id", f"duplicate game id {gid!r}")
            seen_games.add(gid)
        host = c.get(gm, "host_email", gp, str, None)
        if host and not is_email(host):
            c.add(f"{gp}.host_email", f"not an email address: {host!r}")
        seats: list[SeatConfig] = []
        raw_seats = c.get(gm, "seats", gp, list, required=True) or []
        if raw_seats and len(raw_seats) != 4:
            c.add(f"{gp}.seats", f"Successors needs exactly 4 seats, got {len(raw_seats)}")
        seen_seats: set[str] = set()
        seen_emails: dict[str, str | None] = {}
        for si, s in enumerate(raw_seats):
            sp = f"{gp}.seats[{si}]"
            sm = c.mapping(s, sp)
            c.unknown(sm, {"seat", "player", "email", "key_hash"}, sp)
            seat = c.get(sm, "seat", sp, str, required=True)
            if seat is not None:
                if seat not in _SEATS:
                    c.add(f"{sp}.seat", f"must be one of {', '.join(_SEATS)}, got {seat!r}")
                elif seat in seen_seats:
                    c.add(f"{sp}.seat", f"seat {seat!r} appears twice")
                seen_seats.add(seat)
            player = c.get(sm, "player", sp, str, required=True)
            c.one_line(player, f"{sp}.player")
            email = c.get(sm, "email", sp, str, required=True)
            if email is not None and not is_email(email):
                c.add(f"{sp}.email", f"not an email address: {email!r}")
            elif email is not None and fold_address(email) in seen_emails:
                c.add(f"{sp}.email", f"{email} already plays seat {seen_emails[fold_address(email)]} of this game: "
                      "each seat needs its own address (the sender identifies the seat)")
            elif email is not None:
                seen_emails[fold_address(email)] = seat
            key_hash = c.get(sm, "key_hash", sp, str, required=True)
            if key_hash is not None and not is_key_hash(key_hash):
                c.add(f"{sp}.key_hash", "not a key hash; make one with `pbem key hash`")
            seats.append(SeatConfig(seat or "", player or "", fold_address(email or ""), key_hash or ""))
        options = c.get(gm, "options", gp, dict, {})
        host_key_hash = c.get(gm, "host_key_hash", gp, str, None)
        if host_key_hash is not None and not host_key_hash.startswith("pbkdf2_sha256$"):
            c.add(f"{gp}.host_key_hash", "not a key hash; make one with `pbem key new`")
        settings, bad = parse_settings(c.get(gm, "settings", gp, dict, {}))
        for problem in bad:
            c.problems.append(f"{gp}.settings.{problem}")
        host = fold_address(host) if host else host  # compared with a mail's folded sender (break16)
        games.append(GameConfig(gid or "", tuple(seats), c.get(gm, "pack", gp, str, "builtin"), host, options or {},
                                host_key_hash, settings))

    max_bytes, authserv_id, require_auth = _mail_settings(c, root)
    rate = c.get(root, "reply_rate_per_hour", "", int, 5)
    seat_rate = c.get(root, "seat_reply_rate_per_hour", "", int, 30)
    stranger_rate = c.get(root, "stranger_replies_per_hour", "", int, 60)
    map_attachment = c.get(root, "map_attachment", "", bool, True)
    if c.problems:
        raise ConfigError(c.problems)
    return Config(
        path=path or base / "config.yaml",
        judge_address=fold_address(address),
        judge_name=name,
        database=c.path(c.get(root, "database", "", str, "var/pbem.sqlite")),
        archive_dir=c.path(c.get(root, "archive_dir", "", str, "var/archive")),
        imap=ImapConfig(**imap),
        smtp=MailServer(**smtp),
        devmail=devmail,
        deadlines=deadlines,
        games=tuple(games),
        reply_rate_per_hour=rate,
        seat_reply_rate_per_hour=seat_rate,
        stranger_replies_per_hour=stranger_rate,
        map_attachment=map_attachment,
        max_message_bytes=max_bytes,
        authserv_id=authserv_id.strip().lower() if authserv_id else None,
        require_authentication=bool(require_auth),
    )

"""Loading and checking ``config.yaml`` (see ``config.example.yaml`` for every key).

The file's shape is one declared schema, :class:`ConfigFile` (pydantic v2 models, one
per section, unknown keys refused, strict types); it is the reference the docs are
checked against (:func:`key_paths`, docs/host-guide.md "The config file").
:func:`parse_config` validates a parsed file against it and turns it into the frozen
:class:`Config` the service reads. Loading collects *every* problem with its path in the
file, e.g. ``games[0].seats[2].email: not an email address``, and raises
:class:`ConfigError` carrying the list; a check that compares two values runs once both
are good, so a problem's consequences are not listed as more problems. Secrets may come
from the environment: any string written ``${NAME}`` is replaced by the environment
variable NAME, and ``password_file`` reads the password from a file. Relative paths are
taken relative to the config file.

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
from typing import Annotated, Any, Self, get_args, get_origin

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from pbem import i18n
from pbem.addresses import reaches_mailbox
from pbem.gamesettings import GameSettings, duration, parse_settings
from pbem.keys import is_key_hash
from pbem.mail.headers import fold_address, normalise_address

TLS_MODES = ("none", "starttls", "implicit")
SEATS = ("north", "east", "south", "west")
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
    #: a CA certificate (PEM) trusted for this server besides the system's (a private CA)
    ca_file: str | None = None


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
    """One seat of a game: its name (north/east/south/west), player, address, key hash,
    the language of its mail (:mod:`pbem.i18n`; issue 28); ``bot``: the game's bot plays
    it (then ``player`` is ``bot NAME``, and the address and key hash are empty: nothing
    is mailed to a bot and no key sends its orders)."""

    seat: str
    player: str
    email: str
    key_hash: str
    language: str = "en"
    bot: bool = False


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
class ReplicaConfig:
    """Continuous replication of the database with Litestream (``replica``; issue 30):
    ``url`` is a folder (absolute path) or an S3-compatible bucket URL
    (``s3://bucket/path``); None: no replication. The S3 credentials are never in the
    config: Litestream reads them from the environment (``LITESTREAM_ACCESS_KEY_ID`` /
    ``LITESTREAM_SECRET_ACCESS_KEY``, or ``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY``).
    ``sync_interval``: seconds between two shipments of the log's new pages (the most a
    replica lags behind); ``litestream``: the binary, None for the one ``pbem[replica]``
    installed (found beside the Python running pbem, then on PATH)."""

    url: str | None = None
    endpoint: str | None = None
    region: str | None = None
    force_path_style: bool = False
    sync_interval: float = 1.0
    litestream: str | None = None

    @property
    def enabled(self) -> bool:
        """True when the config asks for a replica."""
        return self.url is not None


@dataclass(frozen=True)
class RetentionConfig:
    """What happens to a finished game (``retention``; issue 30 item 7): ``move_after``
    seconds after it ended it moves from the live database to the archive database
    ``archive_db`` (its HTML archive written first under ``archive_dir``); ``prune_after``
    seconds after it ended the raw mails it received and the bodies of the mail it sent
    are dropped from the archive database (their hashes, sizes and headers' summary
    stay; the log stays whole and verifiable). None: never."""

    move_after: float | None = 30 * 86400.0
    prune_after: float | None = 365 * 86400.0
    archive_db: Path | None = None


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
    #: continuous replication with Litestream (issue 30); off by default
    replica: ReplicaConfig = field(default_factory=ReplicaConfig)
    #: finished games out of the live database, raw mail pruned (issue 30 item 7)
    retention: RetentionConfig = field(default_factory=lambda: RetentionConfig())

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


# --------------------------------------------------------------------------- the schema
# The file's shape, declared with pydantic (strict: a string is never taken for a number
# nor a boolean, except a port or a rate written as digits, as ``${PORT}`` gives). Every
# problem is collected and named by its path (:func:`_problems`); checks that compare
# several values of one section run once that section's own values are good.


def _env(value: Any) -> Any:
    """``${NAME}`` in a string replaced by the environment variable NAME."""
    if not isinstance(value, str):
        return value
    unset = [m.group(1) for m in _ENV.finditer(value) if m.group(1) not in os.environ]
    if unset:
        raise PydanticCustomError("env_unset", "environment variable {name} is not set", {"name": unset[0]})
    return _ENV.sub(lambda m: os.environ[m.group(1)], value)


def _secret(value: Any, info: ValidationInfo) -> Any:
    """A password: like :func:`_env`, except that a command that never logs in
    (validation context ``{"secrets": False}``: ``pbem status``, ``verify``, ``backup``…)
    reads an unset variable as no password (issue 30: a read-only command must not need
    the mail server's password in its environment)."""
    if isinstance(value, str) and (info.context or {}).get("secrets") is False and any(
            m.group(1) not in os.environ for m in _ENV.finditer(value)):
        return None
    return _env(value)


def _env_int(value: Any) -> Any:
    value = _env(value)
    return int(value) if isinstance(value, str) and value.isdigit() else value


def _env_size(value: Any) -> int:
    return parse_size(_env(value))


def _one_line(value: str) -> str:
    problem = header_safe_problem(value)
    if problem:
        raise PydanticCustomError("header_unsafe", "{problem}", {"problem": problem})
    return value


def _port(value: int) -> int:
    if not 0 < value < 65536:
        raise PydanticCustomError("port_range", "port out of range: {port}", {"port": value})
    return value


def _email(value: str) -> str:
    if not is_email(value):
        raise PydanticCustomError("email", "not an email address: {value}", {"value": repr(value)})
    return value


Text = Annotated[str, BeforeValidator(_env)]
"""A string; ``${NAME}`` is read from the environment."""
Line = Annotated[str, BeforeValidator(_env), AfterValidator(_one_line)]
"""A string written into mail headers: one line of printable text (RFC 5322 section 2.2)."""
Email = Annotated[str, BeforeValidator(_env), AfterValidator(_email)]
"""A plain addr-spec (RFC 5322 section 3.4.1), as :func:`is_email` takes it."""
Secret = Annotated[str | None, BeforeValidator(_secret)]
"""A password or the path to one; ``${NAME}`` is read from the environment (see :func:`_secret`)."""
Whole = Annotated[int, BeforeValidator(_env_int)]
"""A whole number (digits in a string are taken, so ``${PORT}`` works)."""
Port = Annotated[int, BeforeValidator(_env_int), AfterValidator(_port)]
"""A TCP port, 1-65535."""
Flag = Annotated[bool, BeforeValidator(_env)]
"""``true`` or ``false`` (YAML's booleans only)."""
Duration = Annotated[float, BeforeValidator(parse_duration)]
"""``"72h"``, ``"30m"``, ``"2d"``, ``"45s"`` or seconds (:func:`pbem.gamesettings.duration`)."""
Size = Annotated[int, BeforeValidator(_env_size)]
"""``"10MB"``, ``"500KB"`` or bytes (:func:`parse_size`)."""


def _refuse(*items: tuple[str, str]) -> None:
    """Raise the problems ``(sub-path, what)`` of one section at once (sub-path ``""``,
    ``"tls"`` or ``"[1].seat"``, appended to the section's path)."""
    if items:
        raise PydanticCustomError("pbem", "{summary}", {"summary": "; ".join(m for _, m in items),
                                                        "items": list(items)})


class _Section(BaseModel):
    """One mapping of the file: unknown keys refused, a key written empty (``null``)
    taken as absent, so its default applies."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _absent_when_empty(cls, data: Any) -> Any:
        if isinstance(data, Mapping):
            return {k: v for k, v in data.items() if v is not None}
        return data


class JudgeSection(_Section):
    """``judge``: the address players write to, and the name our mail is signed with."""

    address: Email
    name: Line = "pbem judge"


class _ServerSection(_Section):
    """``imap`` / ``smtp``: an endpoint, its TLS (RFC 8314) and its login."""

    host: Text = "127.0.0.1"
    user: Text | None = None
    password: Secret = None
    password_file: Secret = None
    verify_tls: Flag = True
    #: a CA certificate file (PEM) to trust for this server: a private CA or a self-signed one
    ca_file: Text | None = None
    allow_plaintext: Flag = False
    tls: Text = Field("none", validate_default=True)

    @field_validator("tls")
    @classmethod
    def _tls(cls, tls: str, info: ValidationInfo) -> str:
        """One of :data:`TLS_MODES`; ``none`` only to a loopback host or with
        ``allow_plaintext`` (checked when ``host`` and ``allow_plaintext`` are good)."""
        if tls not in TLS_MODES:
            raise PydanticCustomError("tls", "must be one of {modes}, got {tls}",
                                      {"modes": ", ".join(TLS_MODES), "tls": repr(tls)})
        host, plain = info.data.get("host"), info.data.get("allow_plaintext")
        if tls == "none" and host is not None and plain is not None and host not in LOOPBACK and not plain:
            raise PydanticCustomError("tls", "`none` would send the password unencrypted to {host}; use starttls "
                                      "or implicit (or set allow_plaintext: true if the network path is trusted)",
                                      {"host": host})
        return tls


class SmtpSection(_ServerSection):
    """``smtp``: how our mail leaves."""

    port: Port = 25


class ImapSection(_ServerSection):
    """``imap``: where order mails arrive, and the folders handled mail moves to."""

    port: Port = 143
    folder: Text = "INBOX"
    processed_folder: Text | None = None
    quarantine_folder: Text = "Quarantine"
    idle: Flag = True
    poll_interval: Duration = 30.0
    idle_renew: Duration = 25 * 60.0

    @field_validator("idle_renew")
    @classmethod
    def _idle_renew(cls, seconds: float) -> float:
        if seconds > 29 * 60:
            raise PydanticCustomError("idle_renew", "RFC 2177 asks clients to re-issue IDLE at least every 29 minutes")
        return seconds


class DevmailSection(_Section):
    """``devmail``: the embedded local mail server; its ports default to the ``smtp`` and
    ``imap`` ones."""

    enabled: Flag = False
    maildir: Text = "var/devmail"
    smtp_port: Port | None = None
    imap_port: Port | None = None
    accounts: dict[str, str] = Field(default_factory=dict)
    domain: Text = "pbem.localhost"

    @field_validator("accounts", mode="before")
    @classmethod
    def _accounts(cls, value: Any) -> Any:
        if isinstance(value, Mapping):
            _refuse(*((f".{user}", "account names and passwords must be strings")
                      for user, pw in value.items() if not isinstance(user, str) or not isinstance(pw, str)))
        return value

    @field_validator("domain")
    @classmethod
    def _domain(cls, value: str) -> str:
        if value and not _DOMAIN.fullmatch(value):
            raise PydanticCustomError("domain", "not a domain name: {value}", {"value": repr(value)})
        return value


class Deadlines(_Section):
    """``deadlines``: how long a seat has (lengths as :data:`Duration`); another key is
    taken as a further named length."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)
    __pydantic_extra__: dict[str, Duration]  # type: ignore[assignment]

    player_turn: Duration = 72 * 3600.0
    reaction: Duration = 24 * 3600.0
    reminder: Duration = 24 * 3600.0


class SeatSection(_Section):
    """``games[].seats[]``: one seat, its player, the player's address and key hash,
    and the language of the seat's mail (``en``, ``es``, ``ru``; default ``en``); or
    ``bot: true`` (and none of player, address, key hash): the game's bot plays the seat
    (docs/bots.md)."""

    seat: Text
    player: Line | None = None
    email: Email | None = None
    key_hash: Text | None = None
    bot: bool = False
    language: Text = "en"

    @model_validator(mode="after")
    def _player_or_bot(self) -> Self:
        if self.bot:
            given = [k for k in ("player", "email", "key_hash") if getattr(self, k) is not None]
            _refuse(*((f".{k}", f"a seat with `bot: true` has no {k} (the game's bot plays it)") for k in given))
        else:
            _refuse(*((f".{k}", "Field required (or `bot: true`: the game's bot plays the seat)")
                      for k in ("player", "email", "key_hash") if getattr(self, k) is None))
        return self

    @field_validator("language")
    @classmethod
    def _language(cls, value: str) -> str:
        if not i18n.is_language(value, pseudo=True):
            raise PydanticCustomError("language", "must be one of {languages}, got {value}",
                                      {"languages": ", ".join(i18n.LANGUAGES), "value": repr(value)})
        return value

    @field_validator("seat")
    @classmethod
    def _seat(cls, value: str) -> str:
        if value not in SEATS:
            raise PydanticCustomError("seat", "must be one of {seats}, got {value}",
                                      {"seats": ", ".join(SEATS), "value": repr(value)})
        return value

    @field_validator("key_hash")
    @classmethod
    def _key_hash(cls, value: str) -> str:
        if not is_key_hash(value):
            raise PydanticCustomError("key_hash", "not a key hash; make one with `pbem key hash`")
        return value


class GameSection(_Section):
    """``games[]``: a game this judge hosts."""

    id: Text
    pack: Text = "builtin"
    host_email: Email | None = None
    host_key_hash: Text | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    settings: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSection]

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not _ID.fullmatch(value):
            raise PydanticCustomError("game_id", "use lowercase letters, digits, '.', '_' or '-' (got {value})",
                                      {"value": repr(value)})
        return value

    @field_validator("host_key_hash")
    @classmethod
    def _host_key_hash(cls, value: str) -> str:
        if not is_key_hash(value):  # either form pbem.keys makes (`pbem key new`: hmac_sha256$)
            raise PydanticCustomError("key_hash", "not a key hash; make one with `pbem key new`")
        return value

    @field_validator("settings")
    @classmethod
    def _settings(cls, value: dict[str, Any]) -> dict[str, Any]:
        _settings, bad = parse_settings(value)
        _refuse(*((f".{p.split(':', 1)[0]}", p.split(":", 1)[1].strip()) for p in bad))
        return value

    @field_validator("seats")
    @classmethod
    def _seats(cls, seats: list[SeatSection]) -> list[SeatSection]:
        problems = []
        if seats and len(seats) != len(SEATS):
            problems.append(("", f"Successors needs exactly 4 seats, got {len(seats)}"))
        seen: set[str] = set()
        emails: dict[str, str] = {}
        for i, s in enumerate(seats):
            if s.seat in seen:
                problems.append((f"[{i}].seat", f"seat {s.seat!r} appears twice"))
            seen.add(s.seat)
            if s.bot:
                continue
            folded = fold_address(s.email)
            if folded in emails:
                problems.append((f"[{i}].email", (f"{s.email} already plays seat {emails[folded]} of this game: "
                                 "each seat needs its own address (the sender identifies the seat)")))
            else:
                emails[folded] = s.seat
        _refuse(*problems)
        return seats


class AuthenticationSection(_Section):
    """``authentication``: trust our receiving server's Authentication-Results (RFC 8601)."""

    authserv_id: Line | None = None
    require: Flag = False

    @field_validator("require")
    @classmethod
    def _require(cls, require: bool, info: ValidationInfo) -> bool:
        if require and "authserv_id" in info.data and not info.data["authserv_id"]:
            raise PydanticCustomError("require", "needs authentication.authserv_id (the id your receiving server "
                                      "writes in its Authentication-Results headers)")
        return require


class ReplicaSection(_Section):
    """``replica``: continuous replication of the database with Litestream beside
    ``pbem run`` (issue 30). ``url``: a folder, or ``s3://bucket/path`` for S3 or an
    S3-compatible store (with ``endpoint``); the credentials come from the environment,
    never from this file."""

    url: Text | None = None
    endpoint: Text | None = None
    region: Text | None = None
    force_path_style: Flag = False
    sync_interval: Duration = 1.0
    litestream: Text | None = None

    @field_validator("url")
    @classmethod
    def _url(cls, url: str) -> str:
        scheme = url.split("://", 1)[0].lower() if "://" in url else ""
        if scheme not in ("", "file", "s3"):
            raise PydanticCustomError("replica_url", "a folder or an s3://bucket/path URL, got {url}", {"url": repr(url)})
        if scheme == "s3" and not url.split("://", 1)[1].split("/", 1)[0]:
            raise PydanticCustomError("replica_url", "an s3:// URL names its bucket: s3://bucket/path")
        if scheme == "file" and not url[len("file://"):]:
            raise PydanticCustomError("replica_url", "a file:// URL names its folder: file:///var/backups/pbem")
        return url

    @field_validator("sync_interval")
    @classmethod
    def _sync_interval(cls, seconds: float) -> float:
        if seconds <= 0:
            raise PydanticCustomError("sync_interval", "must be more than 0 seconds")
        return seconds


class RetentionSection(_Section):
    """``retention``: when a finished game leaves the live database for the archive
    database (``move_after``, a :data:`Duration` after its end, default 30 days) and when
    its raw mails and sent bodies are pruned there (``prune_after``, after its end,
    default 365 days; never before it moved); ``null`` for never. ``archive_db``: the
    archive database's file (default: the database's name with ``.archive.sqlite``)."""

    move_after: Duration | None = 30 * 86400.0
    prune_after: Duration | None = 365 * 86400.0
    archive_db: Text | None = None

    @model_validator(mode="after")
    def _order(self) -> "RetentionSection":
        if self.prune_after is not None and self.move_after is None:
            raise PydanticCustomError("retention", "prune_after needs move_after: a game is pruned only "
                                      "in the archive database")
        if self.prune_after is not None and self.move_after is not None and self.prune_after < self.move_after:
            raise PydanticCustomError("retention", "prune_after must not be shorter than move_after: a game "
                                      "is pruned only once it has moved to the archive database")
        return self


class ConfigFile(_Section):
    """The whole ``config.yaml`` (``config.example.yaml`` shows every section). This is
    the reference the docs are checked against (:func:`key_paths`)."""

    judge: JudgeSection
    database: Text = "var/pbem.sqlite"
    archive_dir: Text = "var/archive"
    imap: ImapSection = Field(default_factory=ImapSection)
    smtp: SmtpSection = Field(default_factory=SmtpSection)
    devmail: DevmailSection = Field(default_factory=DevmailSection)
    deadlines: Deadlines = Field(default_factory=Deadlines)
    reply_rate_per_hour: Whole = 5
    seat_reply_rate_per_hour: Whole = 30
    stranger_replies_per_hour: Whole = 60
    map_attachment: Flag = True
    max_message_bytes: Size = 10_000_000
    authentication: AuthenticationSection = Field(default_factory=AuthenticationSection)
    replica: ReplicaSection = Field(default_factory=ReplicaSection)
    retention: RetentionSection = Field(default_factory=RetentionSection)
    games: list[GameSection] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _sections(cls, data: Any) -> Any:
        """An absent or empty section is checked as ``{}`` (so ``judge.address`` is
        named missing)."""
        if isinstance(data, Mapping):
            data = {**data}
            for key in ("judge", "imap", "smtp", "devmail", "deadlines", "authentication", "replica",
                        "retention"):
                if data.get(key) is None:
                    data[key] = {}
        return data

    @field_validator("games")
    @classmethod
    def _games(cls, games: list[GameSection]) -> list[GameSection]:
        seen: set[str] = set()
        problems = []
        for i, g in enumerate(games):
            if g.id in seen:
                problems.append((f"[{i}].id", f"duplicate game id {g.id!r}"))
            seen.add(g.id)
        _refuse(*problems)
        return games

    @model_validator(mode="after")
    def _not_the_judge(self) -> Self:
        """No game's host or seat may have the judge's own address (or one that reaches
        its mailbox, ``judge+tag@``: RFC 5233): the judge would mail itself, and mail from
        that address would speak for a seat or the host (issue 25, attempt 5, item 5)."""
        own = self.judge.address
        problems = []
        for i, g in enumerate(self.games):
            if g.host_email and reaches_mailbox(g.host_email, own):
                problems.append((f"games[{i}].host_email", f"{g.host_email} is the judge's own address "
                                 f"(judge.address: {own}); the host needs an address of their own"))
            for j, s in enumerate(g.seats):
                if s.email and reaches_mailbox(s.email, own):
                    problems.append((f"games[{i}].seats[{j}].email", f"{s.email} is the judge's own address "
                                     f"(judge.address: {own}); seat {s.seat} needs its player's address"))
        _refuse(*problems)
        return self

    @model_validator(mode="after")
    def _devmail_ports(self) -> Self:
        smtp_port, imap_port = self.devmail_ports()
        if self.devmail.enabled and smtp_port and smtp_port == imap_port:
            _refuse(("devmail.imap_port", (f"the embedded SMTP and IMAP servers would both listen on port "
                                           f"{smtp_port}; give them two different ports (devmail.smtp_port/"
                                           "imap_port, or smtp.port/imap.port)")))
        return self

    def devmail_ports(self) -> tuple[int, int]:
        """The embedded servers' ``(smtp, imap)`` ports: ``devmail``'s, else ``smtp``'s
        and ``imap``'s."""
        return (self.devmail.smtp_port or self.smtp.port, self.devmail.imap_port or self.imap.port)


def key_paths(model: type[BaseModel] = ConfigFile, prefix: str = "") -> list[str]:
    """Every key the file may hold, as paths (``judge.address``, ``games[].seats[].email``;
    a free mapping such as ``games[].options`` as itself), in schema order."""
    out = []
    for name, info in model.model_fields.items():
        path = f"{prefix}{name}"
        sub = _section_of(info.annotation)
        if sub is None:
            out.append(path)
        else:
            listed = get_origin(info.annotation) is list
            out.append(path)
            out += key_paths(sub, f"{path}[]." if listed else f"{path}.")
    return out


def _section_of(annotation: Any) -> type[BaseModel] | None:
    """The section model inside ``annotation`` (``X``, ``list[X]``, ``X | None``), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _section_of(arg)
        if found is not None:
            return found
    return None


def _model_at(loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The section model at ``loc`` (a pydantic error location), None past the schema."""
    model: type[BaseModel] | None = ConfigFile
    for part in loc:
        if isinstance(part, int):
            continue
        if model is None or part not in model.model_fields:
            return None
        model = _section_of(model.model_fields[part].annotation)
    return model


def _where(loc: tuple[int | str, ...]) -> str:
    """``("games", 0, "seats", 2, "email")`` -> ``games[0].seats[2].email``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


_TYPE_NAMES = {"string_type": "str", "int_type": "int", "int_parsing": "int", "int_from_float": "int",
               "bool_type": "bool", "bool_parsing": "bool", "dict_type": "dict", "list_type": "list",
               "float_type": "float", "float_parsing": "float"}


def _problems(error: ValidationError) -> list[str]:
    """Each pydantic error as ``path: what`` in the words of the config's docs."""
    out = []
    for e in error.errors(include_url=False):
        loc, kind, value = tuple(e["loc"]), e["type"], e.get("input")
        where = _where(loc)
        if kind == "pbem":
            for sub, text in e["ctx"]["items"]:
                path = where + sub if sub.startswith(("[", ".")) or not sub else \
                    (f"{where}.{sub}" if where else sub)
                out.append(f"{path}: {text}")
            continue
        if kind == "missing":
            text = "missing"
        elif kind == "extra_forbidden":
            allowed = _model_at(loc[:-1])
            names = ", ".join(sorted(allowed.model_fields)) if allowed else ""
            text = f"unknown key (allowed: {names})"
        elif kind in ("model_type", "model_attributes_type"):
            text = f"expected a mapping, got {type(value).__name__}"
        elif kind in _TYPE_NAMES:
            if isinstance(value, bool) and _TYPE_NAMES[kind] in ("int", "float"):
                text = f"expected a number, got {value!r}"
            else:
                text = f"expected {_TYPE_NAMES[kind]}, got {type(value).__name__} {value!r}"
        elif kind == "value_error":
            text = str(e["ctx"]["error"])
        else:
            text = e["msg"]
        out.append(f"{where or '(top level)'}: {text}")
    return out


def load_config(path: str | os.PathLike[str], secrets: bool = True) -> Config:
    """Read and check the config file at ``path``; ``secrets=False`` for a command that
    never logs in to a mail server: the passwords are then not needed (an unset
    ``${VAR}`` or a ``password_file`` is left unread, the password None).

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
    return parse_config(raw, base=p.resolve().parent, path=p, secrets=secrets)


def parse_config(raw: Any, base: Path, path: Path | None = None, secrets: bool = True) -> Config:
    """Check an already-parsed config mapping against :class:`ConfigFile` and return
    the :class:`Config` the service uses; see :func:`load_config`. Raises
    :class:`ConfigError` listing every problem by its path."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise ConfigError([f"(top level): expected a mapping, got {type(raw).__name__}"])
    try:
        f = ConfigFile.model_validate(raw, context={"secrets": secrets})
    except ValidationError as exc:
        raise ConfigError(_problems(exc)) from None
    problems: list[str] = []
    passwords = {}
    for name, server in (("imap", f.imap), ("smtp", f.smtp)):
        passwords[name] = server.password
        if server.ca_file and not _under(base, server.ca_file).is_file():
            problems.append(f"{name}.ca_file: no file {_under(base, server.ca_file)} (the CA certificate to trust, PEM)")
        if server.password_file and secrets:
            try:
                passwords[name] = _under(base, server.password_file).read_text(encoding="utf-8").strip()
            except OSError as exc:
                problems.append(f"{name}.password_file: cannot read {server.password_file}: {exc.strerror}")
    if problems:
        raise ConfigError(problems)

    def server(s: _ServerSection, name: str) -> dict[str, Any]:
        return {"host": s.host, "port": s.port, "tls": s.tls, "user": s.user, "password": passwords[name],
                "verify_tls": s.verify_tls, "ca_file": str(_under(base, s.ca_file)) if s.ca_file else None}

    smtp_port, imap_port = f.devmail_ports()
    authserv_id = f.authentication.authserv_id
    return Config(
        path=path or base / "config.yaml",
        judge_address=fold_address(f.judge.address),
        judge_name=f.judge.name,
        database=_under(base, f.database),
        archive_dir=_under(base, f.archive_dir),
        imap=ImapConfig(**server(f.imap, "imap"), folder=f.imap.folder, processed_folder=f.imap.processed_folder,
                        quarantine_folder=f.imap.quarantine_folder or None, idle=f.imap.idle,
                        poll_interval=f.imap.poll_interval, idle_renew=f.imap.idle_renew),
        smtp=MailServer(**server(f.smtp, "smtp")),
        devmail=DevmailConfig(enabled=f.devmail.enabled, maildir=_under(base, f.devmail.maildir),
                              smtp_port=smtp_port, imap_port=imap_port, accounts=dict(f.devmail.accounts),
                              domain=f.devmail.domain),
        deadlines={**f.deadlines.model_dump()},
        games=tuple(GameConfig(
            g.id, tuple(_seat_config(s, parse_settings(g.settings)[0]) for s in g.seats),
            g.pack, fold_address(g.host_email) if g.host_email else g.host_email,  # compared folded (break16)
            g.options, g.host_key_hash, parse_settings(g.settings)[0]) for g in f.games),
        reply_rate_per_hour=f.reply_rate_per_hour,
        seat_reply_rate_per_hour=f.seat_reply_rate_per_hour,
        stranger_replies_per_hour=f.stranger_replies_per_hour,
        map_attachment=f.map_attachment,
        max_message_bytes=f.max_message_bytes,
        authserv_id=authserv_id.strip().lower() if authserv_id else None,
        require_authentication=f.authentication.require,
        replica=_replica(f.replica, base),
        retention=RetentionConfig(
            move_after=f.retention.move_after, prune_after=f.retention.prune_after,
            archive_db=_under(base, f.retention.archive_db) if f.retention.archive_db
            else _under(base, f.database).with_suffix(".archive.sqlite")),
    )


def _replica(r: ReplicaSection, base: Path) -> ReplicaConfig:
    """The ``replica`` section as :class:`ReplicaConfig`: a folder (a plain path, or a
    ``file://`` URL) made absolute relative to the config file; an ``s3://`` URL as is."""
    url = r.url
    if url is not None and not url.lower().startswith("s3://"):
        url = str(_under(base, url[len("file://"):] if url.lower().startswith("file://") else url))
    litestream = str(_under(base, r.litestream)) if r.litestream and "/" in r.litestream else r.litestream
    return ReplicaConfig(url=url, endpoint=r.endpoint, region=r.region, force_path_style=r.force_path_style,
                         sync_interval=r.sync_interval, litestream=litestream)


def _seat_config(s: SeatSection, settings: GameSettings) -> SeatConfig:
    """A seat of the file as the judge keeps it: a bot seat named ``bot NAME`` (the
    game's ``bot`` setting), with no address and no key hash."""
    if s.bot:
        return SeatConfig(s.seat, f"bot {settings.bot}", "", "", bot=True, language=s.language)
    return SeatConfig(s.seat, s.player or "", fold_address(s.email or ""), s.key_hash or "",
                      language=s.language)


def _under(base: Path, value: str) -> Path:
    """``value`` as a path, relative ones taken relative to the config file's folder."""
    p = Path(value or ".")
    return p if p.is_absolute() else base / p

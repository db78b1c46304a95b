"""Seat keys: the secret each seat writes in its orders (``key:``); only a salted hash is
stored (docs/pipeline.md, "Seat keys").

Two schemes, chosen by the key, so that no order mail pays a slow hash and a leaked
database still gives nothing to guess from:

- ``hmac_sha256$SALT$DIGEST``: for keys made by :func:`new_key` (120 random bits from
  :mod:`secrets`). ``DIGEST = HMAC-SHA256(SALT, key)`` (RFC 2104) costs a microsecond;
  a stretched hash adds nothing here, because guessing a 120-bit key offline is out of
  reach at any speed (2^119 tries on average).
- ``pbkdf2_sha256$ITERATIONS$SALT$DIGEST`` (RFC 8018, 200,000 iterations): for any
  other key (one a host typed, the 40-bit keys of older ``pbem key new``), whose
  entropy we cannot vouch for. Existing hashes keep this scheme and keep working.
  :class:`KeyCache` remembers, in memory only, the keys verified against such a hash,
  so a seat pays PBKDF2 once per judge process instead of on every mail.

Hand-written rather than passlib's: the two schemes are a few lines of :mod:`hashlib` /
:mod:`hmac` each, and passlib would add a dependency for them.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections import OrderedDict

_ITERATIONS = 200_000
#: the most PBKDF2 iterations a stored hash may ask for (50 times ours: a typo in a
#: config must not make every mail of a seat take minutes, or overflow)
MAX_ITERATIONS = 10_000_000
#: lower-case base32 (RFC 4648 alphabet): no 0/1/8/9, so no O/0 or l/1 confusion
_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"
#: a key of :func:`new_key`: 6 groups of 4 base32 characters = 120 bits
GENERATED_KEY = re.compile(r"[a-z2-7]{4}(?:-[a-z2-7]{4}){5}")
FAST = "hmac_sha256"
SLOW = "pbkdf2_sha256"
SCHEMES = (FAST, SLOW)


def new_key() -> str:
    """Return a fresh seat key of 120 random bits, typable by hand: six groups of four
    lower-case base32 characters, e.g. ``'k7qm-3xzt-w2pa-mfhe-r5dc-uvbn'``."""
    chars = "".join(secrets.choice(_ALPHABET) for _ in range(24))
    return "-".join(chars[i:i + 4] for i in range(0, 24, 4))


def is_generated(key: str) -> bool:
    """True when ``key`` (stripped) has the form of :func:`new_key` (120 bits)."""
    return GENERATED_KEY.fullmatch(key.strip()) is not None


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def hash_key(key: str, *, iterations: int = _ITERATIONS, salt: bytes | None = None) -> str:
    """The stored form of ``key``: ``hmac_sha256$SALT$HASH`` for a key of the
    :func:`new_key` form, else ``pbkdf2_sha256$ITERATIONS$SALT$HASH`` (RFC 8018); SALT
    is 16 random bytes (or ``salt``), both base64."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    text = key.strip().encode()
    if is_generated(key):
        return f"{FAST}${_b64(salt)}${_b64(hmac.new(salt, text, hashlib.sha256).digest())}"
    digest = hashlib.pbkdf2_hmac("sha256", text, salt, iterations)
    return f"{SLOW}${iterations}${_b64(salt)}${_b64(digest)}"


def is_key_hash(value: str) -> bool:
    """True when ``value`` looks like a hash made by :func:`hash_key` (either scheme)."""
    parts = value.split("$")
    return (parts[0] == FAST and len(parts) == 3) or (
        parts[0] == SLOW and len(parts) == 4 and parts[1].isascii() and parts[1].isdigit()
        and 0 < int(parts[1]) <= MAX_ITERATIONS)


def is_slow(key_hash: str) -> bool:
    """True for a PBKDF2 hash (verifying costs about 60 ms)."""
    return key_hash.startswith(SLOW + "$")


def verify_key(key: str, key_hash: str) -> bool:
    """True when ``key`` matches ``key_hash`` of either scheme (constant-time compare);
    False for a malformed hash, an unknown scheme, more than :data:`MAX_ITERATIONS`
    iterations, a non-string key or one holding a NUL (HMAC pads a short key with zero
    bytes, RFC 2104 2, so PBKDF2 would take ``key + "\\0"`` for ``key``)."""
    if not isinstance(key, str) or "\0" in key:
        return False
    text = key.strip().encode()
    try:
        parts = key_hash.split("$")
        if parts[0] == FAST and len(parts) == 3:
            expected = base64.b64decode(parts[2])
            actual = hmac.new(base64.b64decode(parts[1]), text, hashlib.sha256).digest()
        elif parts[0] == SLOW and len(parts) == 4:
            expected = base64.b64decode(parts[3])
            if not 0 < int(parts[1]) <= MAX_ITERATIONS:
                return False
            actual = hashlib.pbkdf2_hmac("sha256", text, base64.b64decode(parts[2]), int(parts[1]))
        else:
            return False
    except (ValueError, TypeError, OverflowError):
        return False
    return hmac.compare_digest(expected, actual)


class KeyCache:
    """A verified-key cache for slow (PBKDF2) hashes, in memory only.

    After a key verifies against a PBKDF2 hash, the cache keeps
    ``HMAC-SHA256(secret, key_hash + NUL + key)`` under a random ``secret`` made for
    this object, never the key; a later mail with the same key and hash is checked
    against that in a microsecond. Nothing is written anywhere, so a leaked database
    is exactly as hard to guess from as before; a wrong key is never cached (it pays
    PBKDF2 each time, and the wrong-key lockout bounds how often). At most ``size``
    entries (least recently used dropped). Not thread-safe: one per judge.
    """

    def __init__(self, size: int = 4096):
        self.size = size
        self._secret = secrets.token_bytes(32)
        self._seen: OrderedDict[bytes, None] = OrderedDict()
        self.slow_checks = 0

    def _tag(self, key: str, key_hash: str) -> bytes:
        return hmac.new(self._secret, f"{key_hash}\0{key.strip()}".encode(), hashlib.sha256).digest()

    def verify(self, key: str, key_hash: str) -> bool:
        """:func:`verify_key`, remembering keys verified against a slow hash."""
        if not isinstance(key, str) or not is_slow(key_hash):
            return verify_key(key, key_hash)
        tag = self._tag(key, key_hash)
        if tag in self._seen:
            self._seen.move_to_end(tag)
            return True
        self.slow_checks += 1
        if not verify_key(key, key_hash):
            return False
        self._seen[tag] = None
        if len(self._seen) > self.size:
            self._seen.popitem(last=False)
        return True

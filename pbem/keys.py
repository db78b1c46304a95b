"""Seat keys: the secret each seat writes in its orders (``key:``); only a salted hash is
stored (PBKDF2-HMAC-SHA256, RFC 8018)."""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

_ITERATIONS = 200_000


def new_key() -> str:
    """Return a fresh human-typable seat key, e.g. ``'kite-8f3a-lamp-21c0'``."""
    words = ["olive", "lamp", "kite", "amber", "cedar", "delta", "ember", "flint", "grove",
             "harbor", "ivory", "jasper", "laurel", "myrtle", "onyx", "quartz", "river", "stone"]
    return f"{secrets.choice(words)}-{secrets.token_hex(2)}-{secrets.choice(words)}-{secrets.token_hex(2)}"


def hash_key(key: str, *, iterations: int = _ITERATIONS, salt: bytes | None = None) -> str:
    """Return ``pbkdf2_sha256$ITERATIONS$SALT$HASH`` (base64) for ``key`` (RFC 8018)."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", key.strip().encode(), salt, iterations)
    b64 = lambda b: base64.b64encode(b).decode()
    return f"pbkdf2_sha256${iterations}${b64(salt)}${b64(digest)}"


def verify_key(key: str, key_hash: str) -> bool:
    """True when ``key`` matches ``key_hash`` (constant-time compare); False for a
    malformed hash or a non-string key."""
    if not isinstance(key, str):
        return False
    try:
        scheme, iterations, salt, digest = key_hash.split("$")
        if scheme != "pbkdf2_sha256":
            return False
        expected = base64.b64decode(digest)
        actual = hashlib.pbkdf2_hmac("sha256", key.strip().encode(), base64.b64decode(salt), int(iterations))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(expected, actual)

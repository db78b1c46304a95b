"""Seat keys (pbem.keys): both hash schemes, the verified-key cache, ``pbem key``."""
from __future__ import annotations

from click.testing import CliRunner

from pbem.cli import main
from pbem.config import parse_config
from pbem.keys import (
    FAST,
    MAX_ITERATIONS,
    SLOW,
    KeyCache,
    hash_key,
    is_generated,
    is_key_hash,
    new_key,
    verify_key,
)


def test_new_keys_are_120_bit_and_get_the_fast_hash() -> None:
    keys = {new_key() for _ in range(50)}
    assert len(keys) == 50 and all(is_generated(k) and len(k) == 29 for k in keys)
    k = next(iter(keys))
    h = hash_key(k)
    assert h.startswith(FAST + "$") and is_key_hash(h)
    assert verify_key(k, h) and verify_key(f"  {k}\n", h)
    assert not verify_key(k[:-1] + ("a" if k[-1] != "a" else "b"), h)


def test_typed_keys_keep_pbkdf2_and_old_hashes_verify() -> None:
    h = hash_key("north-olive-lamp", iterations=1000)
    assert h.startswith(SLOW + "$1000$") and is_key_hash(h)
    assert verify_key("north-olive-lamp", h) and not verify_key("north-olive-lump", h)
    for bad in ("md5$x$y", "pbkdf2_sha256$x$y$z", "hmac_sha256$!!$??", ""):
        assert not verify_key("north-olive-lamp", bad)
    assert not verify_key(None, h)  # type: ignore[arg-type]


def test_the_cache_pays_pbkdf2_once_per_key_and_never_caches_a_wrong_key() -> None:
    cache = KeyCache(size=2)
    h = hash_key("north-olive-lamp", iterations=1000)
    assert cache.verify("north-olive-lamp", h) and cache.verify("north-olive-lamp", h)
    assert cache.slow_checks == 1
    assert not cache.verify("wrong", h) and not cache.verify("wrong", h)
    assert cache.slow_checks == 3
    # another hash of the same key is another entry: a changed key_hash is checked anew
    h2 = hash_key("north-olive-lamp", iterations=1000)
    assert cache.verify("north-olive-lamp", h2) and cache.slow_checks == 4
    assert not cache.verify("north-olive-lamp", hash_key("other", iterations=1000))
    fast = hash_key(new_key())
    assert not cache.verify("north-olive-lamp", fast) and cache.slow_checks == 5
    # bounded: the oldest entry goes
    cache.verify("east", hash_key("east", iterations=1000))
    assert len(cache._seen) == 2


def test_the_cache_keeps_no_key() -> None:
    cache = KeyCache()
    cache.verify("north-olive-lamp", hash_key("north-olive-lamp", iterations=1000))
    assert all(b"north" not in tag and len(tag) == 32 for tag in cache._seen)


def test_pbem_key_new_and_hash() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["key", "new"])
    assert out.exit_code == 0, out.output
    lines = dict(line.split(":", 1) for line in out.output.splitlines())
    key, h = lines["key"].strip(), lines["key_hash"].strip()
    assert is_generated(key) and h.startswith(FAST) and verify_key(key, h)
    typed = runner.invoke(main, ["key", "hash", "my own key"])
    assert typed.exit_code == 0 and typed.output.startswith(SLOW)
    assert verify_key("my own key", typed.output.strip())
    assert runner.invoke(main, ["key", "hash", key]).output.startswith(FAST)


def test_the_config_takes_both_schemes_and_refuses_others(tmp_path) -> None:
    def conf(h: str):
        return {"judge": {"address": "judge@pbem.localhost"}, "database": str(tmp_path / "x.sqlite"),
                "games": [{"id": "g1", "seats": [{"seat": s, "player": s, "email": f"{s}@x.example", "key_hash": h}
                                                 for s in ("north", "east", "south", "west")]}]}
    parse_config(conf(hash_key(new_key())), base=tmp_path)
    parse_config(conf(hash_key("typed", iterations=1000)), base=tmp_path)
    try:
        parse_config(conf("sha1$abc"), base=tmp_path)
    except Exception as exc:  # noqa: BLE001 - the config error type
        assert "not a key hash" in str(exc)
    else:
        raise AssertionError("a bogus hash was accepted")


def test_a_key_with_nul_bytes_is_refused_by_both_schemes() -> None:
    """HMAC pads a short key with zero bytes (RFC 2104), so PBKDF2 alone took
    ``key + NUL`` for ``key`` (break-it 2026-12-02); the fast scheme refused it."""
    slow, fast_key = hash_key("north-olive-lamp", iterations=1000), new_key()
    fast = hash_key(fast_key)
    assert verify_key("north-olive-lamp", slow) and verify_key(fast_key, fast)
    for suffix in ("\0", "\0\0\0"):
        assert not verify_key("north-olive-lamp" + suffix, slow)
        assert not verify_key(fast_key + suffix, fast)
        assert not KeyCache().verify("north-olive-lamp" + suffix, slow)


def test_an_absurd_iteration_count_is_no_hash_and_verifies_nothing() -> None:
    good = hash_key("north-olive-lamp", iterations=1000)
    _scheme, _n, salt, digest = good.split("$")
    for n in ("99999999999", str(MAX_ITERATIONS + 1), "0", "٣"):
        bad = f"pbkdf2_sha256${n}${salt}${digest}"
        assert not is_key_hash(bad)
        assert verify_key("north-olive-lamp", bad) is False  # no OverflowError, no minutes of hashing
    assert is_key_hash(good) and is_key_hash(f"pbkdf2_sha256${MAX_ITERATIONS}${salt}${digest}")

"""CPU time of ``parse_mail`` on hostile mails, measured, not asserted.

    .venv/bin/python benchmarks/bench_hostile_mail.py [--root DIR] [--only NAME ...]

``--root`` imports ``pbem`` from another checkout (e.g. an extracted ``main``) to compare
before and after. Each case is built in memory, parsed once, and its CPU time (process
time, seconds) and outcome are printed.
"""
from __future__ import annotations

import argparse
import base64
import sys
import time
from collections.abc import Callable
from pathlib import Path

HEAD = (b"From: Kleitos <north@players.example>\r\nTo: judge@pbem.example\r\n"
        b"Message-ID: <bench@players.example>\r\n")
ORDERS = b"game: alexandria-1\r\nseat: north\r\nkey: k\r\nstep: 7\r\norders: {}\r\n"
MB = 1_000_000


def plain(body: bytes, extra: bytes = b"Subject: orders\r\n") -> bytes:
    return HEAD + extra + b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + body


def big_text() -> bytes:
    """30 MB of prose lines after the orders."""
    line = b"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.\r\n"
    return plain(ORDERS + line * (30 * MB // len(line)))


def big_yaml() -> bytes:
    """30 MB of YAML-looking lines inside the orders block."""
    line = b"  - army: Ptolemy\r\n"
    return plain(ORDERS + b"  movement:\r\n" + line * (30 * MB // len(line)))


def big_attachment() -> bytes:
    """Orders plus a 30 MB base64 attachment."""
    data = base64.encodebytes(b"\x89PNG" * (22 * MB // 4))
    return (HEAD + b"Subject: orders\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
            b"--b\r\nContent-Type: text/plain\r\n\r\n" + ORDERS +
            b"--b\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + data + b"\r\n--b--\r\n")


def big_html() -> bytes:
    """30 MB of HTML."""
    cell = b"<div><b>Lorem</b> ipsum <i>dolor</i> sit amet</div>\r\n"
    return (HEAD + b"Subject: orders\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><pre>"
            + ORDERS + b"</pre>" + cell * (30 * MB // len(cell)) + b"</body></html>")


def nested(depth: int) -> Callable[[], bytes]:
    def build() -> bytes:
        head = b"".join(b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i)
                        for i in range(depth))
        tail = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
        return HEAD + b"Subject: orders\r\nMIME-Version: 1.0\r\n" + head + b"Content-Type: text/plain\r\n\r\n" \
            + ORDERS + tail
    build.__doc__ = f"multipart/mixed nested {depth} deep"
    return build


def many_parts(count: int) -> Callable[[], bytes]:
    def build() -> bytes:
        part = b"--b\r\nContent-Type: text/plain\r\n\r\nhello\r\n"
        return (HEAD + b"Subject: orders\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
                + b"--b\r\nContent-Type: text/plain\r\n\r\n" + ORDERS + part * count
                + b"--b--\r\n")
    build.__doc__ = f"multipart/mixed with {count} parts"
    return build


def many_headers() -> bytes:
    """100,000 header lines (about 2 MB)."""
    return plain(ORDERS, b"".join(b"X-Filler-%d: value\r\n" % i for i in range(100_000))
                 + b"Subject: orders\r\n")


def long_header() -> bytes:
    """One 5 MB Subject folded every 70 characters."""
    return plain(ORDERS, b"Subject: " + b"word " * 14 + (b"\r\n " + b"word " * 14) * 70_000
                 + b"\r\n")


def encoded_words() -> bytes:
    """A 2 MB Subject of RFC 2047 encoded words."""
    return plain(ORDERS, b"Subject: " + b"=?utf-8?q?caf=C3=A9?= " * 90_000 + b"\r\n")


def many_references() -> bytes:
    """A 2 MB References header (40,000 ids)."""
    refs = b" ".join(b"<ref-%d@players.example>" % i for i in range(40_000))
    return plain(ORDERS, b"Subject: orders\r\nReferences: " + refs + b"\r\n")


def yaml_nested() -> bytes:
    """A 50,000-deep flow sequence inside the orders block."""
    return plain(ORDERS + b"  deep: " + b"[" * 50_000 + b"]" * 50_000 + b"\r\n")


def yaml_bomb() -> bytes:
    """The billion-laughs alias bomb as orders."""
    lines = [b"game: x", b"a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [b"a%d: &a%d [%s]" % (i, i, b", ".join([b"*a%d" % (i - 1)] * 9))
              for i in range(1, 10)]
    return plain(b"\r\n".join(lines) + b"\r\n")


def within_limits_text() -> bytes:
    """9.9 MB of prose after the orders: just under the default 10 MB limit."""
    line = b"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.\r\n"
    return plain(ORDERS + line * (9_900_000 // len(line)))


def within_limits_html() -> bytes:
    """9.9 MB of HTML."""
    cell = b"<div><b>Lorem</b> ipsum <i>dolor</i> sit amet</div>\r\n"
    return (HEAD + b"Subject: orders\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<pre>"
            + ORDERS + b"</pre>" + cell * (9_900_000 // len(cell)))


def fat_part_headers() -> bytes:
    """190 parts, each with a 15,000-character Content-Type (parsed a few times each)."""
    params = b"; ".join(b"p%d=v" % i for i in range(2_000))[:15_000]
    part = b"--b\r\nContent-Type: text/plain; " + params + b"\r\n\r\nhello\r\n"
    return (HEAD + b"Subject: orders\r\nMIME-Version: 1.0\r\n"
            b"Content-Type: multipart/mixed; boundary=b\r\n\r\n"
            b"--b\r\nContent-Type: text/plain\r\n\r\n" + ORDERS + part * 190 + b"--b--\r\n")


def fat_headers() -> bytes:
    """Every header the judge reads, each 15,000 characters, in 250 KB of header."""
    filler = b"x " * 7_500
    names = [b"Subject", b"Auto-Submitted", b"Precedence", b"Return-Path", b"In-Reply-To",
             b"References", b"X-Failed-Recipients", b"Authentication-Results"]
    return plain(ORDERS, b"".join(n + b": " + filler + b"\r\n" for n in names))


def header_like_lines() -> bytes:
    """9.9 MB of "Label: value" lines with an address and a time (each could start a mail
    client's header block, issue 24 item 4) after the orders."""
    line = "送信日時: 2026年11月20日 8:00 <judge@pbem.example>\r\n".encode()
    return plain(ORDERS + line * (9_900_000 // len(line)))


def stray_lines_in_block() -> bytes:
    """9.9 MB of orders with a non-YAML line before every key (each looked ahead of and
    refused by name, issue 24 item 2)."""
    chunk = b"  tyche: {card: 1}   # a comment\r\nthat was wrapped\r\nand a stray line\r\n"
    return plain(ORDERS + chunk * (9_900_000 // len(chunk)))


def judge_text_lines() -> bytes:
    """9.9 MB of the judge's own lines, unquoted, below the orders."""
    line = b"golden, step 9: your move, east (Peukestas).\r\n"
    return plain(ORDERS + b"\r\n" + line * (9_900_000 // len(line)))


CASES: dict[str, Callable[[], bytes]] = {
    "big_text_30MB": big_text, "big_yaml_30MB": big_yaml,
    "big_attachment_30MB": big_attachment, "big_html_30MB": big_html,
    "nested_100": nested(100), "nested_2000": nested(2000),
    "parts_10000": many_parts(10_000), "headers_100k": many_headers,
    "long_header_5MB": long_header, "encoded_words_2MB": encoded_words,
    "references_40k": many_references, "yaml_nested_50k": yaml_nested,
    "yaml_bomb": yaml_bomb,
    "text_9.9MB": within_limits_text, "html_9.9MB": within_limits_html,
    "fat_part_headers": fat_part_headers, "fat_headers": fat_headers,
    "header_lines_9.9MB": header_like_lines, "stray_lines_9.9MB": stray_lines_in_block,
    "judge_lines_9.9MB": judge_text_lines,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    from pbem.mail.message import parse_mail  # noqa: PLC0415 - the root is chosen above

    print(f"pbem from {args.root}")
    for name, build in CASES.items():
        if args.only and name not in args.only:
            continue
        raw = build()
        start = time.process_time()
        result = parse_mail(raw)
        spent = time.process_time() - start
        codes = ",".join(p.code for p in result.problems) or result.ignore_reason or ""
        print(f"{name:22} {len(raw) / MB:7.2f} MB {spent:8.3f} s  {result.action} {codes}",
              flush=True)


if __name__ == "__main__":
    main()

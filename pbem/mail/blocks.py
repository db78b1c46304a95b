"""The YAML orders blocks among the author's lines, found as robustly as mail allows.

A block starts at a ``game:`` line and runs while lines look like YAML (issue 24 item 2).
Mail clients break long lines without a mark: Outlook's plain text wraps at 76 columns
and continues *at column 0*, so the tail of an end-of-line comment lands on a line of its
own in the middle of the orders. Such a line used to end the block, and every order below
it was silently lost. Now a line that does not look like YAML, with more of the block
below it, is never a cut:

* the rest of a comment the client wrapped is **rejoined** to that comment (the line
  becomes blank, so line numbers keep matching the mail);
* any other such line is a **stray** line (:class:`StrayLine`): the caller refuses the mail
  naming it (``mail.stray_line``), together with every other problem of the block.

The wrapped rest of a comment may itself read like YAML (``movement: none because …``
spilled to column 0, the real ``movement:`` below it). Such a line is kept in the block
as written and noted as *spilled* (:attr:`YamlBlock.spilled`): right below a line that
ends in a comment, indented less than it, and the two would not have fitted in
:data:`WRAP_COLUMNS`. The caller decides by the document: when the lines as sent are no
YAML and the spilled lines joined to their comments are, it reads the joined block
(:meth:`YamlBlock.rejoin_spilled`); when neither is, it names the spilled line first.

"More of the block below" means: within the next three lines that are not YAML (blank
lines and comments aside), a line that carries on the block's own structure: a top-level
``key:`` in lowercase, or a ``key:`` / ``- item`` at an indentation and of a kind the block
already uses. Prose after the orders ("Kleitos", "PS: ...", a note with an indented list)
still ends the block, as before. At the block's end, a line that can only be the wrapped
rest of a long plain value above it (the two would not have fitted in 72 columns) is a
stray line too, so a long ``salt:`` or ``comment:`` is never cut short unseen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["GAME_LINE", "WRAP_COLUMNS", "StrayLine", "YamlBlock", "find_yaml_blocks",
           "strip_quote_markers"]

#: A ``game:`` line (any case, possibly quoted, any indentation): where a block starts.
GAME_LINE = re.compile(r"""^( *)(["']?)game\2 *:(?:[ \t]|$)""", re.IGNORECASE)
_KEY_LINE_RE = re.compile(r"""^(["']?)[\w.-]+\1[ \t]*:(?:[ \t]|$)""")
_TOP_KEY_RE = re.compile(r"""^(["']?)[a-z_][a-z0-9_-]*\1[ \t]*:(?:[ \t]|$)""")
#: A ``command:`` line in any case (``Command: status``: people capitalise it, issue 24 N6).
_COMMAND_LINE_RE = re.compile(r"""^(["']?)command\1[ \t]*:(?:[ \t]|$)""", re.IGNORECASE)
_ENVELOPE_KEYS = frozenset({"command", "seat", "key", "host", "seq", "step"})
"""The envelope's keys: one of them written above ``game:`` with blank lines between
(``command: help``, a blank line, then the block copied from a prompt: issue 24 N6) is
read with the block; any other key only right above it."""
_UNQUOTE_RE = re.compile(r"^[ \t]*(?:>[ \t]?)+")
#: The narrowest column at which common mail clients wrap plain text (Thunderbird and most
#: webmail 72, Outlook 76, Gmail 78): a line this long or longer may have been wrapped.
WRAP_COLUMNS = 72
#: How many lines that are not YAML may sit between two parts of one block.
_MAX_STRAY_RUN = 3
_LOOK_AHEAD = 16


@dataclass(frozen=True)
class StrayLine:
    """A line inside an orders block that is not YAML and is not read.

    Attributes:
        index: 0-based index of the line in the lines searched (the mail's body lines).
        text: the line as written, surrounding white space removed.
        wrapped: ``True`` at the end of a block, where the line can only be the rest of
            a long value above it that the mail client wrapped; ``False`` inside a block
            (more orders follow it).
    """

    index: int
    text: str
    wrapped: bool = False


@dataclass(frozen=True)
class YamlBlock:
    """Lines that form one YAML orders block.

    Attributes:
        start: 0-based index of the block's first line in the lines searched: the
            ``game:`` line, or the first top-level ``key:`` line right above it.
        lines: the block's lines, the ``game:`` line's indentation removed from each; one
            entry per line searched from ``start`` on (rejoined and stray lines are blank),
            so line *n* of the block is line ``start + n`` of the mail.
        stray: the stray lines (:class:`StrayLine`) inside the block, in order; a block
            with any must be refused naming them.
        rejoined: indices (in the lines searched) of lines that continued a comment the
            mail client wrapped; their text was appended to that comment.
        spilled: indices (in the lines searched) of lines kept as YAML that may be the
            wrapped rest of the comment on the line above them (see the module's
            docstring).
    """

    start: int
    lines: tuple[str, ...]
    stray: tuple[StrayLine, ...] = ()
    rejoined: tuple[int, ...] = ()
    spilled: tuple[int, ...] = ()

    def rejoin_spilled(self) -> YamlBlock:
        """The block with each :attr:`spilled` line joined to the comment above it (the
        line left blank, so line numbers keep matching the mail)."""
        lines = list(self.lines)
        for index in self.spilled:
            at = index - self.start
            lines[at - 1] = lines[at - 1].rstrip() + " " + lines[at].strip()
            lines[at] = ""
        return YamlBlock(self.start, tuple(lines), self.stray,
                         tuple(sorted((*self.rejoined, *self.spilled))))

    @property
    def text(self) -> str:
        """The block as text, one trailing newline."""
        return "\n".join(self.lines) + "\n"

    @property
    def echo(self) -> str:
        """The block as the judge read it, for "the block the judge found" of an answer:
        :attr:`text` without the blank lines left where a wrapped comment's rest was
        rejoined to the comment above (:attr:`rejoined`): that rest is shown once, in its
        comment, not also as a line of its own (issue 24 N15)."""
        gone = {index - self.start for index in self.rejoined}
        return "\n".join(line for n, line in enumerate(self.lines) if n not in gone) + "\n"


def _scan(line: str, depth: int) -> tuple[int, int | None]:
    """``(depth, comment)``: unclosed ``[``/``{`` after ``line`` starting at ``depth``, and
    the index of the ``#`` that starts a comment (outside quotes), or ``None``."""
    quote: str | None = None
    for index, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"" and (index == 0 or line[index - 1] in " \t[{,:"):
            quote = ch
        elif ch == "#" and (index == 0 or line[index - 1] in " \t"):
            return depth, index
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth = max(0, depth - 1)
    return depth, None


def _is_yaml_line(rest: str) -> bool:
    """A line that may belong to a block at its base indentation: indented deeper, a list
    item, a comment, or a ``key:`` line."""
    return (rest[0] in " \t" or rest.startswith(("- ", "#")) or rest.rstrip() == "-"
            or bool(_KEY_LINE_RE.match(rest)))


def _plain_value(rest: str) -> bool:
    """The line ends in a plain scalar that a wrapped next line could continue (not a
    flow collection, a quoted or block scalar, or a key with nothing after it)."""
    content = rest.strip()
    while content.startswith("- "):
        content = content[2:].lstrip()
    match = _KEY_LINE_RE.match(content)
    value = content[match.end():].strip() if match else content
    return bool(value) and value[0] not in "[{\"'|>&*!#"


@dataclass
class _Open:
    """The block being read."""

    start: int
    base: int
    lines: list[str]
    brackets: int = 0
    levels: dict[int, str] = field(default_factory=dict)
    comment: int | None = None  # position in ``lines`` of a comment a wrapped line may continue
    stray: list[StrayLine] = field(default_factory=list)
    rejoined: list[int] = field(default_factory=list)
    spilled: list[int] = field(default_factory=list)

    def rest(self, line: str) -> str | None:
        """``line`` without the block's base indentation, ``None`` when it is indented
        less than the block or is no longer than it."""
        if line[:self.base].strip(" ") or len(line) <= self.base:
            return None
        return line[self.base:]

    def add(self, rest: str) -> None:
        """Append a YAML line; note its indentation and kind (``key`` or ``item``)."""
        self.lines.append(rest)
        self.brackets, comment = _scan(rest, 0)
        self.comment = len(self.lines) - 1 if comment is not None else None
        content = rest.lstrip(" ")
        if not content or content.startswith("#") or content[0] == "\t":
            return
        depth = len(rest) - len(content)
        for deeper in [d for d in self.levels if d > depth]:
            del self.levels[deeper]
        if content.startswith("- ") or content.rstrip() == "-":
            self.levels[depth] = "item"
            inner = content[1:].lstrip(" ")
            if inner and _KEY_LINE_RE.match(inner):
                self.levels[depth + len(content) - len(inner)] = "key"
        elif _KEY_LINE_RE.match(content):
            self.levels[depth] = "key"

    def blank(self) -> None:
        self.lines.append("")
        self.comment = None

    def continues(self, rest: str) -> bool:
        """``rest`` carries on the block's structure: a lowercase top-level key, or a key /
        list item at an indentation where the block has one of the same kind."""
        content = rest.lstrip(" ")
        depth = len(rest) - len(content)
        if depth == 0:
            return bool(_TOP_KEY_RE.match(content))
        if content.startswith("- ") or content.rstrip() == "-":
            return self.levels.get(depth) == "item"
        return bool(_KEY_LINE_RE.match(content)) and self.levels.get(depth) == "key"

    def resumes_at(self, lines: list[str | None], index: int) -> int | None:
        """The index of the line that carries the block on after the non-YAML line at
        ``index``, or ``None`` when the block ends there."""
        run = 1
        for j in range(index + 1, min(len(lines), index + _LOOK_AHEAD)):
            line = lines[j]
            if line is None or GAME_LINE.match(line):
                return None
            if not line.strip():
                continue
            rest = self.rest(line)
            if rest is not None and rest.lstrip(" ").startswith("#"):
                continue
            if rest is not None and self.continues(rest):
                return j
            run += 1
            if run > _MAX_STRAY_RUN:
                return None
        return None

    def take_run(self, lines: list[str | None], index: int, end: int) -> None:
        """Lines ``index`` to ``end`` (exclusive) sit inside the block: blank lines and
        comments are kept, the rest of a wrapped comment is rejoined, anything else is
        stray."""
        for k in range(index, end):
            line = lines[k] or ""
            rest = self.rest(line)
            if not line.strip():
                self.blank()
            elif rest is not None and rest.lstrip(" ").startswith("#"):
                self.add(rest)
            elif self.comment is not None:
                self.lines[self.comment] = self.lines[self.comment].rstrip() + " " + line.strip()
                self.lines.append("")
                self.rejoined.append(k)
            else:
                self.stray.append(StrayLine(k, line.strip()))
                self.blank()

    def spills(self, lines: list[str | None], index: int, rest: str) -> bool:
        """The YAML-looking line at ``index`` (``rest``, without the base indentation) may
        be the rest of the comment that ends the line right above it, wrapped by the mail
        client: less indented than that line, and the two would not have fitted in
        :data:`WRAP_COLUMNS` columns (at most 80, Outlook's 76 and Gmail's 78 included)."""
        above = lines[index - 1] if index else None
        if above is None or self.comment is None or self.comment != len(self.lines) - 1:
            return False
        last = self.lines[-1]
        depth = len(rest) - len(rest.lstrip(" "))
        word = rest.split()[0] if rest.split() else ""
        return (depth < len(last) - len(last.lstrip(" ")) and len(above) <= 80
                and len(above) + 1 + len(word) > WRAP_COLUMNS)

    def wrapped_tail(self, lines: list[str | None], index: int) -> bool:
        """The line at ``index``, right below the block's last line, can only be the rest of
        that line's plain value wrapped by the mail client."""
        above = lines[index - 1] if index else None
        line = lines[index] or ""
        if above is None or not above.strip() or self.comment is not None or not self.lines[-1].strip():
            return False
        word = line.split()[0]
        return (len(above) + 1 + len(word) > WRAP_COLUMNS and len(above) <= 80
                and _plain_value(self.lines[-1]))

    def block(self) -> YamlBlock:
        lines = list(self.lines)
        while lines and not lines[-1].strip():
            lines.pop()
        return YamlBlock(self.start, tuple(lines), tuple(self.stray), tuple(self.rejoined),
                         tuple(self.spilled))


def _keys_above(lines: list[str | None], index: int, base: int, floor: int) -> int:
    """The index of the first of the lowercase top-level ``key:`` lines (and a
    ``command:`` line in any case, :data:`_COMMAND_LINE_RE`) (at the ``game:``
    line's indentation ``base``, no blank line between, or an envelope key across blank
    lines, :data:`_ENVELOPE_KEYS`) right above the ``game:`` line at
    ``index``, and not before ``floor``; ``index`` when there are none. A player who wrote
    ``command: status`` above ``game:`` means it as part of the document: it is read with
    the block (and checked like any key), never cut off unseen."""
    first = probe = index
    while probe - 1 >= floor:
        above = lines[probe - 1]
        if above is not None and not above.strip():  # a blank line: only an envelope key reaches over it
            probe -= 1
            continue
        if above is None or above[:base].strip(" ") or not (
                _TOP_KEY_RE.match(above[base:]) or _COMMAND_LINE_RE.match(above[base:])):
            break
        if probe != first and above[base:].split(":", 1)[0].strip("\"' ").lower() not in _ENVELOPE_KEYS:
            break
        probe -= 1
        first = probe
    return first


def find_yaml_blocks(lines: tuple[str | None, ...] | list[str | None],
                     max_lines: int | None = None) -> list[YamlBlock]:
    """Find the orders blocks among the author's lines.

    A block starts at a ``game:`` line (any case, possibly quoted, any indentation), or at
    the lowercase top-level ``key:`` lines right above it (``command: status`` written
    before ``game:``), and continues while lines are blank, indented deeper than the ``game:`` line, list items
    (``- ``), comments, ``key:`` lines, or continuations of an unclosed ``[``/``{``. A line
    that is none of these ends the block ("Kleitos", "-- Kleitos", ``---``) unless the
    block carries on below it (see the module's docstring): then it is rejoined to the
    comment it continues, or kept as a stray line. A block ends at a ``None`` line and at
    another ``game:`` line of the same indentation (which starts a new block).

    Args:
        lines: the body's lines, ``None`` for lines that are not the author's own.
        max_lines: when a block grows past this many lines the search stops there (the
            caller refuses such a block unread; a hostile mail costs no more work).

    Returns:
        The blocks in order, trailing blank lines removed.
    """
    lines = list(lines)
    blocks: list[YamlBlock] = []
    current: _Open | None = None
    index = 0
    floor = 0  # lines before this belong to an earlier block
    while index < len(lines):
        if current is not None and max_lines is not None and len(current.lines) > max_lines:
            break
        line = lines[index]
        match = GAME_LINE.match(line) if line is not None else None
        if line is None or (match and (current is None or (len(match.group(1)) <= current.base
                                                           and not current.brackets))):
            if current is not None:
                blocks.append(current.block())
                floor = index
            current = None
            if match:
                current = _Open(index, len(match.group(1)), [])
                first = _keys_above(lines, index, len(match.group(1)), floor)
                for above in lines[first:index]:
                    current.add(above[current.base:])  # type: ignore[index]
                current.start = first
                current.add(line[current.base:])
            index += 1
            continue
        if current is None:
            pass
        elif not line.strip():
            current.blank()
        elif current.brackets:
            current.lines.append(line[current.base:] if not line[:current.base].strip() else line.lstrip(" "))
            current.brackets, comment = _scan(line, current.brackets)
            current.comment = len(current.lines) - 1 if comment is not None else None
        elif (rest := current.rest(line)) is not None and _is_yaml_line(rest):
            if current.spills(lines, index, rest):
                current.spilled.append(index)
            current.add(rest)
        elif (resume := current.resumes_at(lines, index)) is not None:
            current.take_run(lines, index, resume)
            index = resume
            continue
        else:
            if current.wrapped_tail(lines, index):
                current.stray.append(StrayLine(index, line.strip(), wrapped=True))
            blocks.append(current.block())
            current = None
            floor = index + 1
        index += 1
    if current is not None:
        blocks.append(current.block())
    return blocks


def strip_quote_markers(lines: tuple[str, ...] | list[str]) -> list[str | None]:
    """Remove ``>`` quote markers from lines, for looking for orders in quoted text."""
    return [_UNQUOTE_RE.sub("", line) for line in lines]

"""Strict YAML for orders: text normalisation and a PyYAML loader that keeps what players type.

Orders arrive typed into mail clients, so before parsing the text is normalised
(:func:`normalise_text`): non-breaking and other Unicode spaces become spaces, zero-width
characters and byte-order marks are removed, curly quotes become straight quotes, and C1
control characters (what windows-1252 punctuation becomes when mislabelled as ISO-8859-1)
are mapped back to the characters the sender typed.

:class:`StrictLoader` is a :class:`yaml.SafeLoader` with its own implicit resolvers, close to
the YAML 1.2 core schema:

* only ``true``/``false`` (any case) are booleans; ``yes``/``no``/``on``/``off`` stay strings;
* integers only in plain decimal without leading zeros (``010`` stays the string ``"010"``),
  no hexadecimal, octal or base-60 (``1:30`` stays ``"1:30"``);
* floats in decimal notation; no timestamps (dates stay strings); no merge keys;
* duplicate mapping keys are an error naming the key and both lines;
* aliases (``*name``) are refused, so a mail cannot expand into a huge document.

Errors are reported as :class:`Problem` values collected in :class:`OrdersYamlError`.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from pbem.problems import Problem

__all__ = [
    "OrdersYamlError",
    "StrictLoader",
    "load_strict_yaml",
    "normalise_text",
]


class OrdersYamlError(ValueError):
    """Raised by :func:`load_strict_yaml` when the orders text is not acceptable YAML.

    Attributes:
        problems: every problem found (at least one), in line order where possible.
    """

    def __init__(self, problems: list[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        super().__init__("; ".join(p.message for p in self.problems) or "invalid YAML")


# ---------------------------------------------------------------------------------------
# Text normalisation


def _build_translation() -> dict[int, str | None]:
    table: dict[int, str | None] = {}
    spaces = "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
    for ch in spaces:
        table[ord(ch)] = " "
    for ch in "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad\u061c":
        table[ord(ch)] = None  # zero-width, direction marks, BOM, soft hyphen
    for ch in "\u2018\u2019\u201a\u201b\u2032\u2035":
        table[ord(ch)] = "'"
    for ch in "\u201c\u201d\u201e\u201f\u2033\u2036":
        table[ord(ch)] = '"'
    for ch in "\u2028\u2029":
        table[ord(ch)] = "\n"
    # C0 controls other than tab and newline, and DEL: never meaningful in orders.
    for code in list(range(0x09)) + [0x0B, 0x0C] + list(range(0x0E, 0x20)) + [0x7F]:
        table[code] = None
    # C1 controls: text that was windows-1252 but decoded as ISO-8859-1 (RFC 2045 charset
    # mislabelling). Map each back to the windows-1252 character, then normalise that too.
    for code in range(0x80, 0xA0):
        try:
            ch = bytes([code]).decode("cp1252")
        except UnicodeDecodeError:
            table[code] = None  # 0x81, 0x8D, 0x8F, 0x90, 0x9D are undefined in cp1252
            continue
        mapped = table.get(ord(ch), ch)
        table[code] = mapped
    return table


_TRANSLATION = _build_translation()
#: What survives the translation but YAML cannot read (YAML 1.2 section 5.1: no
#: surrogates, no U+FFFE/U+FFFF): an HTML body's ``&#xD800;`` gave PyYAML's reader an
#: error before the orders were read.
_UNREADABLE_RE = re.compile("[\ud800-\udfff\ufffe\uffff]")


def normalise_text(text: str) -> str:
    """Normalise text typed into a mail client so YAML reads what the player meant.

    Converts CRLF and CR to LF; NBSP and other Unicode spaces to a plain space; removes
    zero-width characters, direction marks, soft hyphens and byte-order marks (anywhere);
    turns curly single/double quotes into ``'`` and ``"``; maps C1 control characters
    (U+0080..U+009F, windows-1252 bytes decoded as ISO-8859-1) to the windows-1252
    characters they stand for; drops other control characters except tab and newline,
    lone surrogates and U+FFFE/U+FFFF (an HTML body's ``&#xD800;``).
    Idempotent: ``normalise_text(normalise_text(t)) == normalise_text(t)``.

    Args:
        text: any text.

    Returns:
        The normalised text (tabs are kept so they can be reported).
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _UNREADABLE_RE.sub("", text.translate(_TRANSLATION))


# ---------------------------------------------------------------------------------------
# Loader

_BOOL_RE = re.compile(r"^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$")
_INT_RE = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT_RE = re.compile(
    r"^[-+]?(?:(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+)$"
)
_NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")


class StrictLoader(yaml.SafeLoader):
    """A :class:`yaml.SafeLoader` with strict implicit typing and error collection.

    Use through :func:`load_strict_yaml`. Problems that do not stop parsing (duplicate keys)
    are collected in :attr:`problems`; others raise a PyYAML :class:`yaml.MarkedYAMLError`.
    """

    yaml_implicit_resolvers: ClassVar[dict[str, list[tuple[str, re.Pattern[str]]]]] = {}

    def __init__(self, stream: str, mail_line_offset: int | None = None) -> None:
        super().__init__(stream)
        self.problems: list[Problem] = []
        self.mail_line_offset = mail_line_offset

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(AliasEvent):
            event = self.peek_event()
            raise ComposerError(
                None, None, "aliases (*name) are not allowed in orders", event.start_mark
            )
        return super().compose_node(parent, index)

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        if not isinstance(node, MappingNode):
            raise ConstructorError(
                None, None, f"expected a mapping node, but found {node.id}", node.start_mark
            )
        mapping: dict[Any, Any] = {}
        first_line: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                hash(key)
            except TypeError:
                raise ConstructorError(
                    "while constructing a mapping",
                    node.start_mark,
                    "found unhashable key",
                    key_node.start_mark,
                ) from None
            line = key_node.start_mark.line + 1
            if key in first_line:
                self.problems.append(
                    Problem(
                        code="yaml.duplicate_key",
                        message=(
                            f"{_where(line, self.mail_line_offset)}: the key '{key}' appears twice in the same mapping "
                            f"(first on line {first_line[key]}); each key may appear only once"
                        ),
                        line=line,
                        hint=f"Merge the two '{key}:' entries into one, or delete one of them.",
                    )
                )
                continue
            first_line[key] = line
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


def _construct_bool(loader: StrictLoader, node: Any) -> bool:
    value = loader.construct_scalar(node)
    if isinstance(value, str) and _BOOL_RE.match(value):
        return value.lower() == "true"
    raise ConstructorError(None, None, f"'{value}' is not a boolean (use true or false)",
                           node.start_mark)


def _construct_int(loader: StrictLoader, node: Any) -> int:
    value = loader.construct_scalar(node)
    if isinstance(value, str) and _INT_RE.match(value):
        try:
            return int(value)
        except ValueError:
            pass
    raise ConstructorError(None, None, f"'{value}' is not a plain whole number",
                           node.start_mark)


def _construct_float(loader: StrictLoader, node: Any) -> float:
    value = loader.construct_scalar(node)
    try:
        return float(str(value))
    except ValueError:
        raise ConstructorError(None, None, f"'{value}' is not a number",
                               node.start_mark) from None


def _refuse_tag(loader: StrictLoader, node: Any) -> Any:
    """An explicit tag outside the core schema (``!!binary``, ``!!timestamp``, ``!!set``…):
    refused, because a value of another type (bytes, datetime) broke the recording of
    the mail (break16: ``!!binary`` was quarantined)."""
    raise ConstructorError(None, None, f"the tag {node.tag.replace('tag:yaml.org,2002:', '!!')} is not "
                           "allowed in orders (write the value plainly)", node.start_mark)


for _tag in ("binary", "timestamp", "set", "omap", "pairs", "merge", "value", "yaml"):
    StrictLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse_tag)
StrictLoader.add_implicit_resolver("tag:yaml.org,2002:bool", _BOOL_RE, list("tTfF"))
StrictLoader.add_implicit_resolver("tag:yaml.org,2002:int", _INT_RE, list("-+0123456789"))
StrictLoader.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT_RE, list("-+0123456789."))
StrictLoader.add_implicit_resolver("tag:yaml.org,2002:null", _NULL_RE, ["~", "n", "N", ""])
StrictLoader.add_constructor("tag:yaml.org,2002:bool", _construct_bool)
StrictLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
StrictLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)


# ---------------------------------------------------------------------------------------
# Error translation

_TAB_HINT = "Replace each tab with spaces (2 spaces per level, as in the template)."

# (pattern on PyYAML's problem text, code, plain-language explanation)
_EXPLANATIONS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"found character '\\t'"), "yaml.tab",
     "a tab character is used here; YAML needs spaces"),
    (re.compile(r"mapping values are not allowed"), "yaml.syntax",
     ("a ':' appears where no new key can start; check this line's indentation, or put a "
      "value containing ': ' in quotes")),
    (re.compile(r"could not find expected ':'"), "yaml.syntax",
     ("a line here should be 'key: value' but has no ':' after the key (or a quote above "
      "is not closed)")),
    (re.compile(r"expected <block end>|did not find expected key"), "yaml.syntax",
     ("the indentation does not match the lines above; entries of the same list or "
      "mapping must start in the same column")),
    (re.compile(r"did not find expected '-' indicator"), "yaml.syntax",
     "a list item is indented differently from the items before it"),
    (re.compile(r"expected ',' or '\]'"), "yaml.syntax",
     "a list in [brackets] is not closed with ']' or its items are not separated by commas"),
    (re.compile(r"expected ',' or '\}'"), "yaml.syntax",
     "a mapping in {braces} is not closed with '}' or its entries are not separated by commas"),
    (re.compile(r"unexpected end of stream|found unexpected end"), "yaml.syntax",
     "a quote or bracket opened here is never closed"),
    (re.compile(r"found character '(.)' that cannot start any token"), "yaml.syntax",
     "a value cannot start with this character; put the value in quotes"),
    (re.compile(r"found unhashable key"), "yaml.syntax",
     "a key cannot be a list or a mapping"),
    (re.compile(r"aliases"), "yaml.alias",
     "aliases (*name) are not allowed in orders; write the value out in full"),
    (re.compile(r"found undefined (alias|tag handle)|could not determine a constructor"),
     "yaml.syntax", "an unknown '!tag' or '*alias' is used; remove it"),
    (re.compile(r"is not a (boolean|plain whole number|number)"), "yaml.syntax",
     "an explicitly tagged value is not valid"),
]


#: Characters no value of an orders document may hold, though a double-quoted escape can
#: write them (issue 25 item 4): lone surrogates (``"\\ud800"``; also each half of a pair
#: written as two ``\\u`` escapes, which Python keeps as two). No encoding can carry them,
#: so storing the orders and composing the answer raised, and the mail went to quarantine
#: from any sender, again on every retry. Other control characters (NUL, ESC, CR...) are
#: read: every later stage carries them and the answers and relays drop them (tested by
#: tests/service/test_break16.py).
_BAD_CHARACTER_RE = re.compile("[\ud800-\udfff]")
_BAD_CHARACTER_HINT = ("Write the value plainly, without '\\u' or '\\U' escapes (names of spaces, "
                       "generals and cards need none); a character beyond U+FFFF is one '\\U' escape "
                       "of 8 digits, or just the character itself.")


def _character_problems(root: Node, offset: int | None) -> list[Problem]:
    """One ``yaml.bad_character`` problem per scalar (key or value) of the document
    ``root`` that holds a character of :data:`_BAD_CHARACTER_RE`; iterative, so any depth
    the composer allowed is walked."""
    problems: list[Problem] = []
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode):
            stack.extend(part for pair in reversed(node.value) for part in reversed(pair))
        elif isinstance(node, SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, ScalarNode) and isinstance(node.value, str):
            bad = _BAD_CHARACTER_RE.search(node.value)
            if bad is None:
                continue
            line = node.start_mark.line + 1
            problems.append(Problem(
                code="yaml.bad_character",
                message=(f"{_where(line, offset)}: a value written with an escape holds "
                         f"U+{ord(bad.group()):04X}, a lone surrogate (half of a character), "
                         "which no mail can carry"),
                line=line, hint=_BAD_CHARACTER_HINT,
            ))
    return problems


def _beyond_unicode(loader: StrictLoader, offset: int | None) -> Problem:
    """The problem for an escape past U+10FFFF (``"\\U00110000"``), on which PyYAML's
    scanner raises a bare ``ValueError`` (the mail was answered "internal error")."""
    line = loader.line + 1
    return Problem(code="yaml.bad_character",
                   message=(f"{_where(line, offset)}: a '\\U' escape names a code point beyond "
                            "U+10FFFF, the last character there is"),
                   line=line, hint=_BAD_CHARACTER_HINT)


def _where(line: int, offset: int | None) -> str:
    if offset:
        return f"line {line} (line {line + offset} of your mail)"
    return f"line {line}"


def _explain(exc: yaml.YAMLError, offset: int | None) -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    raw = " ".join(
        str(part) for part in (getattr(exc, "context", None), getattr(exc, "problem", None))
        if part
    ) or str(exc)
    code, explanation = "yaml.syntax", f"YAML could not read this ({raw})"
    for pattern, pcode, text in _EXPLANATIONS:
        if pattern.search(raw):
            code, explanation = pcode, text
            break
    where = _where(line, offset) if line is not None else "somewhere in your orders"
    hint = _TAB_HINT if code == "yaml.tab" else (
        "Compare this line with the template in your last prompt; YAML said: " + raw
    )
    return Problem(code=code, message=f"{where}: {explanation}", line=line, hint=hint)


_INDENT_RE = re.compile(r"^[ \t]*(?:-(?=[ \t]|$)[ \t]*)*")


def _detab_line(line: str) -> str | None:
    """``line`` with every tab that is not indentation read as a space, or ``None`` when
    a tab is part of the indentation (the leading white space, and the white space after
    a ``- `` list marker, which sets the indentation of what follows). Tabs inside quoted
    values stay; a comment-only or blank line loses its tabs whatever their place (YAML
    ignores it)."""
    if "\t" not in line:
        return line
    stripped = line.lstrip(" \t")
    if not stripped or stripped.startswith("#"):
        return line.replace("\t", " ")
    indent = _INDENT_RE.match(line)
    if indent is not None and "\t" in indent.group(0):
        return None
    out: list[str] = []
    quote: str | None = None
    escaped = False
    for index, ch in enumerate(line):
        if quote:
            if escaped:
                escaped = False
            elif quote == '"' and ch == "\\":
                escaped = True
            elif ch == quote and quote == "'" and line[index + 1:index + 2] == "'":
                escaped = True  # '' is a quote inside a single-quoted value
            elif ch == quote:
                quote = None
            out.append(ch)
        elif ch == "#" and index and line[index - 1] in " \t":
            out.append(line[index:].replace("\t", " "))  # a comment: nothing in it is read
            break
        else:
            if ch in "'\"" and (index == 0 or line[index - 1] in " \t[{,:"):
                quote = ch
            out.append(" " if ch == "\t" else ch)
    return "".join(out)


def _detab(lines: list[str], offset: int | None) -> tuple[list[str], list[Problem]]:
    """Issue 24 item 5: tabs are refused in the indentation only (YAML forbids them there,
    and the prompt says so); a tab anywhere else (aligning end-of-line comments, inside a
    comment, between a key and its value, after a comma) is read as a space, which is
    what PyYAML cannot do by itself. Returns the lines to parse and one ``yaml.tab``
    problem per line with a tab in its indentation."""
    out: list[str] = []
    problems: list[Problem] = []
    for number, line in enumerate(lines, start=1):
        detabbed = _detab_line(line)
        if detabbed is None:
            problems.append(Problem(
                code="yaml.tab",
                message=(f"{_where(number, offset)}: a tab character is used for indentation; "
                         "YAML needs spaces"),
                line=number, hint=_TAB_HINT))
            detabbed = line
        out.append(detabbed)
    return out, problems


def load_strict_yaml(text: str, *, mail_line_offset: int | None = None) -> Any:
    """Parse one YAML document with :class:`StrictLoader` after :func:`normalise_text`.

    Args:
        text: the orders text. Line numbers in problems are 1-based lines of this text
            (after normalisation, which never adds or removes lines except for converting
            U+2028/U+2029 into line breaks).
        mail_line_offset: if given and non-zero, messages also say "(line N of your mail)",
            N being the line plus this offset.

    Returns:
        The document: ``dict``/``list``/``str``/``int``/``float``/``bool``/``None``; ``None``
        for empty text. Empty trailing documents (a final ``---``) are ignored.

    Raises:
        OrdersYamlError: with every problem found: tabs in the indentation
            (``yaml.tab``, each line; other tabs are read as spaces), a lone
            surrogate or a code point past U+10FFFF written with an escape
            (``yaml.bad_character``, each value; checked before the document is built),
            duplicate keys (``yaml.duplicate_key``, each one), more than one document
            (``mail.two_documents``), aliases (``yaml.alias``) or the first syntax error
            (``yaml.syntax``, with its line and a plain-language explanation).
    """
    lines, tabs = _detab(normalise_text(text).split("\n"), mail_line_offset)
    if tabs:
        raise OrdersYamlError(tabs)
    try:
        loader = StrictLoader("\n".join(lines), mail_line_offset)
    except yaml.YAMLError as exc:  # the reader refuses a character: normalise_text drops them all
        raise OrdersYamlError([_explain(exc, mail_line_offset)]) from None
    documents: list[Any] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            characters = _character_problems(node, mail_line_offset) if node is not None else []
            if characters:
                raise OrdersYamlError(characters)
            value = loader.construct_document(node) if node is not None else None
            if value is None:
                continue
            if documents:
                line = node.start_mark.line + 1
                raise OrdersYamlError([*loader.problems, Problem(
                    code="mail.two_documents",
                    message=(f"{_where(line, mail_line_offset)}: a second YAML document starts "
                             "here; send exactly one set of orders per mail"),
                    line=line,
                    hint="Remove the '---' line and the second document.")])
            documents.append(value)
    except yaml.YAMLError as exc:
        raise OrdersYamlError([*loader.problems, _explain(exc, mail_line_offset)]) from None
    except OrdersYamlError:
        raise
    except (ValueError, OverflowError):  # chr() of an escape past U+10FFFF, in PyYAML's scanner
        raise OrdersYamlError([*loader.problems, _beyond_unicode(loader, mail_line_offset)]) from None
    except RecursionError:
        raise OrdersYamlError([*loader.problems, Problem(
            code="yaml.syntax", message="your orders are nested too deeply to read",
            hint="Use the shape of the template in your last prompt.")]) from None
    finally:
        loader.dispose()
    if loader.problems:
        raise OrdersYamlError(sorted(loader.problems, key=lambda p: p.line or 0))
    return documents[0] if documents else None

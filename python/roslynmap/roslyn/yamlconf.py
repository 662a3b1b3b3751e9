"""The keys of a YAML configuration file (`appsettings.yml`, NetEscapades.Configuration.Yaml's `AddYamlFile`), flattened
as .NET's configuration flattens them: nested mappings by indentation joined with `:`, a list's items as `Key:0`,
`Key:1`. Exceptionless loads only such files: its BaseURL and Assistant keys read as undefined.

The subset configuration files use: block mappings and sequences, plain or quoted scalars, `#` comments, empty
values. Flow collections (`[a, b]`, `{a: 1}`) and block scalars (`|`, `>`) are taken as one scalar; anchors and tags
are not followed. No dependency: PyYAML is not one of the product's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# `key: value` (the key plain or quoted); the value may be empty (a nested block follows).
_KEY = re.compile(r"""^(?P<key>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"][^:#]*?)\s*:(?:\s+(?P<value>.*))?$""")
_COMMENT = re.compile(r"""\s+#.*$""")


@dataclass(frozen=True)
class YamlKey:
    key: str  # `Apm:ServiceName`, `AllowedHosts:0`
    value: str | None  # the scalar as written, quotes taken off; None for an empty value
    line: int  # 1-based


@dataclass
class _Open:
    indent: int  # the indentation of the entries in this block
    path: str
    is_list: bool
    count: int = 0  # items seen, in a list


def _scalar(text: str) -> str | None:
    text = text.strip()
    if text[:1] in ("'", '"') and (end := text.find(text[0], 1)) > 0:
        return text[1:end]  # quoted: a `#` inside is no comment
    text = _COMMENT.sub("", text).strip()
    return None if text in ("", "~", "null") else text


def _unquote(key: str) -> str:
    return key[1:-1] if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'" else key


def _join(prefix: str, key: str) -> str:
    return f"{prefix}:{key}" if prefix else key


def _is_item(line: str) -> bool:
    return line == "-" or line.startswith("- ")


def keys(text: str) -> list[YamlKey]:
    """Every leaf key with its value and line, and each key whose value is empty (a section written empty)."""
    found: list[YamlKey] = []
    stack: list[_Open] = []  # open blocks, outermost first
    pending: tuple[str, int, int] | None = None  # a key with no value yet: (path, line, its indent)
    block_at: int | None = None  # the indent of a key whose value is a `|`/`>` block scalar, while in its text
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        if block_at is not None:  # a `|` or `>` block scalar's text: deeper lines are its value, never keys
            if indent > block_at:
                continue
            block_at = None
        if pending is not None:  # a deeper line (or a list at its own indent) is its block, else it is empty
            path, line, at = pending
            pending = None
            if indent > at or (indent == at and _is_item(stripped)):
                stack.append(_Open(indent, path, _is_item(stripped)))
            else:
                found.append(YamlKey(path, None, line))
        while stack and (indent < stack[-1].indent
                         or (indent == stack[-1].indent and stack[-1].is_list and not _is_item(stripped))):
            stack.pop()
        while True:  # a list item's mapping (`- Name: x`) is read as lines two columns in
            top = stack[-1] if stack else None
            if _is_item(stripped):
                if top is None or not top.is_list:
                    break  # a list at the root names no key
                path = _join(top.path, str(top.count))
                top.count += 1
                rest = stripped[1:].lstrip()
                if not rest:
                    pending = (path, number, indent)
                elif _KEY.match(rest):
                    indent += len(stripped) - len(rest)
                    stack.append(_Open(indent, path, False))
                    stripped = rest
                    continue
                else:
                    found.append(YamlKey(path, _scalar(rest), number))
                break
            entry = _KEY.match(stripped)
            if entry is not None:
                path = _join(top.path if top else "", _unquote(entry.group("key").strip()))
                value = entry.group("value")
                if value is None or not _COMMENT.sub("", " " + value).strip():
                    pending = (path, number, indent)
                else:
                    found.append(YamlKey(path, _scalar(value), number))
                    if value.strip().startswith(("|", ">")):
                        block_at = indent
            break
    if pending is not None:
        found.append(YamlKey(pending[0], None, pending[1]))
    return found

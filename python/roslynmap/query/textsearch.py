"""code_search_text: a regex or literal over the working-tree text of the files the index holds.

For what is not a symbol: SQL in strings, a message, a note in a comment. Only the baseline's (or the
workspace's) file list is searched, each file read through model/readable.py (real path inside the
repository, never .git/). Matching is per line. Every match is classified `code`, `string` or
`comment` by a small C# lexer (verbatim, interpolated, raw and char literals; line and block comments),
so `kind="string"` finds SQL without its uses. The scan stops at a time limit and says so.
"""

from __future__ import annotations

import bisect
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.readable import readable_file

KINDS = ("code", "string", "comment")
MAX_LINE = 2000  # longer lines (minified, generated) are matched on their first MAX_LINE characters
TEXT_CHARS = 160


@dataclass
class TextMatches:
    items: list[dict[str, Any]]
    total: int
    by_file: list[dict[str, Any]]
    by_kind: dict[str, int]
    files_scanned: int
    files_total: int
    timed_out: bool
    unreadable: list[str] = field(default_factory=list)


def compile_pattern(pattern: str, regex: bool, case_sensitive: bool) -> re.Pattern[str]:
    if not pattern:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, "pattern is empty.", "Pass the text to find, e.g. "
                             "pattern=\"SELECT \" (literal) or pattern=\"throw new \\\\w+\" with regex=true.")
    flags = re.MULTILINE | (0 if case_sensitive else re.IGNORECASE)
    try:
        return re.compile(pattern if regex else re.escape(pattern), flags)
    except re.error as exc:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"pattern is not a valid regular expression: {exc}.",
                             "Fix the expression (Python syntax), or pass regex=false to match it literally.") from exc


def lex_spans(text: str) -> tuple[list[int], list[int], list[str]]:
    """(starts, ends, kinds) of the string and comment spans of C# source, in order; the rest is code."""
    starts: list[int] = []
    ends: list[int] = []
    kinds: list[str] = []
    i, n = 0, len(text)

    def add(start: int, end: int, kind: str) -> None:
        starts.append(start)
        ends.append(end)
        kinds.append(kind)

    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            add(i, end, "comment")
            i = end
        elif c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            add(i, end, "comment")
            i = end
        elif c == "'":
            j = i + 1
            while j < n and text[j] not in "'\n":
                j += 2 if text[j] == "\\" else 1
            add(i, min(j + 1, n), "string")
            i = min(j + 1, n)
        elif c in "\"$@":
            prefix = re.match(r"[$@]{0,3}\"", text[i:i + 4])
            if prefix is None:
                i += 1
                continue
            start, j = i, i + len(prefix.group(0))
            verbatim = "@" in prefix.group(0)
            quotes = len(re.match(r"\"*", text[j - 1:j + 8]).group(0))  # type: ignore[union-attr]
            # A raw string literal opens with three quotes or more, never after `@`: `@"""x"""` is a verbatim
            # string holding `"x"` (Newtonsoft.Json's tests; it read as a raw string closing too early).
            if quotes >= 3 and not verbatim:  # raw string literal: ends at the same run of quotes
                closing = '"' * quotes
                end = text.find(closing, j - 1 + quotes)
                end = n if end < 0 else end + quotes
            else:
                end = j
                while end < n:
                    ch = text[end]
                    if ch == "\\" and not verbatim:
                        end += 2
                        continue
                    if ch == '"':
                        if verbatim and text.startswith('""', end):
                            end += 2
                            continue
                        end += 1
                        break
                    if ch == "\n" and not verbatim:
                        break
                    end += 1
            add(start, min(end, n), "string")
            i = max(min(end, n), i + 1)
        else:
            i += 1
    return starts, ends, kinds


def kind_at(spans: tuple[list[int], list[int], list[str]], offset: int) -> str:
    starts, ends, kinds = spans
    index = bisect.bisect_right(starts, offset) - 1
    return kinds[index] if index >= 0 and offset < ends[index] else "code"


def _read(root: Path, rel: str, virtual: dict[str, str]) -> str | None:
    if rel in virtual:
        return virtual[rel].removeprefix("\ufeff")
    try:
        return readable_file(root, rel).read_text(encoding="utf-8-sig", errors="replace")
    except (RoslynMapError, OSError):
        return None


def search(root: Path, paths: list[str], pattern: re.Pattern[str], kind: str | None, limit: int, offset: int,
           deadline_s: float, virtual: dict[str, str] | None = None) -> TextMatches:
    """Matches of `pattern` in `paths` (repo-relative, in this order), the page [offset, offset+limit) kept
    and every match counted, until `deadline_s` seconds have passed."""
    virtual = virtual or {}
    stop = time.monotonic() + deadline_s
    items: list[dict[str, Any]] = []
    files: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    total = scanned = 0
    timed_out = False
    unreadable: list[str] = []
    for rel in paths:
        if time.monotonic() > stop:
            timed_out = True
            break
        text = _read(root, rel, virtual)
        scanned += 1
        if text is None:
            unreadable.append(rel)
            continue
        if pattern.search(text) is None:
            continue
        spans = lex_spans(text)
        line_start = 0
        for number, line in enumerate(text.split("\n"), start=1):
            for match in pattern.finditer(line[:MAX_LINE].removesuffix("\r")):
                if match.end() == match.start() and match.start() > 0:
                    continue  # an empty match counts once per line
                found = kind_at(spans, line_start + match.start())
                if kind is not None and found != kind:
                    continue
                if offset <= total < offset + limit:
                    items.append({"file": rel, "line": number, "col": match.start() + 1, "kind": found,
                                  "text": line.strip()[:TEXT_CHARS]})
                total += 1
                files[rel] += 1
                kinds[found] += 1
            line_start += len(line) + 1
    by_file = [{"file": f, "count": c} for f, c in sorted(files.items(), key=lambda fc: (-fc[1], fc[0]))]
    return TextMatches(items, total, by_file, {k: kinds[k] for k in KINDS if kinds[k]}, scanned, len(paths),
                       timed_out, unreadable)

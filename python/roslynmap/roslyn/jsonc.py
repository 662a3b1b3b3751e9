"""JSON as .NET's configuration and launch settings files are written: comments and trailing commas allowed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from roslynmap.model.readable import repository_files

_COMMENTS = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', re.S)
_TRAILING_COMMAS = re.compile(r",(\s*[}\]])")


def loads(text: str) -> Any:
    """Parsed JSON; a ValueError when it is not JSON even with comments and trailing commas left out."""
    stripped = _COMMENTS.sub(lambda m: m.group(1) or "", text)
    return json.loads(_TRAILING_COMMAS.sub(r"\1", stripped))


def shown(value: Any) -> Any:
    """A configuration value as a fact shows it: numbers, booleans and null as they are, text cut at 80 characters."""
    return value if isinstance(value, (int, float, bool)) or value is None else str(value)[:80]


def objects(root: Path, patterns: list[str]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(repo-relative path, text, parsed object) of each file matching `patterns` whose text is a JSON object; a
    file that is not (a parse error, an array) is passed over: it defines nothing roslynmap can say."""
    for path in repository_files(root, patterns):
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        try:
            data = loads(text)
        except ValueError:
            continue
        if isinstance(data, dict):
            yield path.relative_to(root).as_posix(), text, data

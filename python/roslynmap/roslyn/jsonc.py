"""JSON as .NET's configuration and launch settings files are written: comments and trailing commas allowed."""

from __future__ import annotations

import json
import re
from typing import Any

_COMMENTS = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', re.S)
_TRAILING_COMMAS = re.compile(r",(\s*[}\]])")


def loads(text: str) -> Any:
    """Parsed JSON; a ValueError when it is not JSON even with comments and trailing commas left out."""
    stripped = _COMMENTS.sub(lambda m: m.group(1) or "", text)
    return json.loads(_TRAILING_COMMAS.sub(r"\1", stripped))


def shown(value: Any) -> Any:
    """A configuration value as a fact shows it: numbers, booleans and null as they are, text cut at 80 characters."""
    return value if isinstance(value, (int, float, bool)) or value is None else str(value)[:80]

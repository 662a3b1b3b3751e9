"""meta.tokens_saved: tokens of the whole files a response points into, minus tokens it emitted.

An upper bound on what reading those files instead would have cost (labelled so): the agent might
not have read every file whole. File sizes are measured (stat), never assumed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from roslynmap.mcp.envelope import CHARS_PER_TOKEN

MAX_FILES = 200
_sizes: dict[str, tuple[int, int]] = {}


def referenced_files(value: Any, out: set[str]) -> set[str]:
    if len(out) >= MAX_FILES:
        return out
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "file" and isinstance(item, str):
                out.add(item)
            elif key != "meta":
                referenced_files(item, out)
    elif isinstance(value, list):
        for item in value:
            referenced_files(item, out)
    return out


def file_tokens(root: Path, rel: str) -> int:
    path = root / rel
    try:
        stat = os.stat(path)
    except OSError:
        return 0
    cached = _sizes.get(str(path))
    if cached is None or cached[0] != stat.st_mtime_ns:
        cached = (stat.st_mtime_ns, -(-stat.st_size // CHARS_PER_TOKEN))
        _sizes[str(path)] = cached
    return cached[1]


def whole_file_tokens(env: dict[str, Any], root: Path) -> int:
    files = referenced_files(env.get("data"), set())
    return sum(file_tokens(root, rel) for rel in files)

"""One-line source excerpts for reference lists, read from the working tree.

Split files are cached across requests, keyed by (mtime, size): a reference list revisits the same
files call after call, and one stat per file per request is all a fresh answer needs.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path

from roslynmap.query.paths import is_readable

MAX_EXCERPT = 160
CACHED_FILES = 512

_cache: OrderedDict[str, tuple[int, int, list[str] | None]] = OrderedDict()
_lock = threading.Lock()


def _lines(path: str) -> list[str] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    with _lock:
        cached = _cache.get(path)
        if cached is not None and cached[0] == stat.st_mtime_ns and cached[1] == stat.st_size:
            _cache.move_to_end(path)
            return cached[2]
    lines: list[str] | None
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        lines = None
    with _lock:
        _cache[path] = (stat.st_mtime_ns, stat.st_size, lines)
        if len(_cache) > CACHED_FILES:
            _cache.popitem(last=False)
    return lines


class ExcerptReader:
    """Excerpts for one request: each file is looked up (stat) once per request."""

    def __init__(self, root: Path) -> None:
        self._root = str(root)
        self._files: dict[str, list[str] | None] = {}

    def line(self, rel_path: str | None, line: int | None) -> str | None:
        if not rel_path or not line:
            return None
        if rel_path in self._files:
            lines = self._files[rel_path]
        else:
            # Only files whose real path is inside the repository (a symlink may point anywhere).
            readable = is_readable(Path(self._root), rel_path)
            lines = self._files[rel_path] = _lines(os.path.join(self._root, rel_path)) if readable else None
        if not lines or line > len(lines):
            return None
        text = lines[line - 1].strip()
        return text if len(text) <= MAX_EXCERPT else text[:MAX_EXCERPT] + "…"

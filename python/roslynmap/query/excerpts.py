"""One-line source excerpts for reference lists, read from the working tree once per file per request."""

from __future__ import annotations

from pathlib import Path

MAX_EXCERPT = 160


class ExcerptReader:
    def __init__(self, root: Path) -> None:
        self._root = root
        self._files: dict[str, list[str] | None] = {}

    def line(self, rel_path: str | None, line: int | None) -> str | None:
        if not rel_path or not line:
            return None
        lines = self._files.get(rel_path, [])
        if lines == []:
            try:
                lines = (self._root / rel_path).read_text(encoding="utf-8-sig", errors="replace").splitlines()
            except OSError:
                lines = None
            self._files[rel_path] = lines
        if not lines or line > len(lines):
            return None
        text = lines[line - 1].strip()
        return text if len(text) <= MAX_EXCERPT else text[:MAX_EXCERPT] + "…"

"""Totals of a result set from (file, kind, count) groups: one grouped query instead of three."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

TOP_FILES = 15


@dataclass
class Tally:
    total: int
    by_file: list[dict[str, Any]]  # the TOP_FILES files with most rows
    by_kind: list[dict[str, Any]]


def tally(groups: Iterable[tuple[str | None, str, int]]) -> Tally:
    """`groups`: rows of `SELECT <file path>, <kind>, count(*) ... GROUP BY <file>, <kind>`."""
    total = 0
    per_file: dict[str, int] = {}
    per_kind: dict[str, int] = {}
    for path, kind, count in groups:
        total += count
        if path is not None:
            per_file[path] = per_file.get(path, 0) + count
        per_kind[kind] = per_kind.get(kind, 0) + count
    return Tally(
        total,
        [{"file": f, "count": c} for f, c in sorted(per_file.items(), key=lambda fc: (-fc[1], fc[0]))[:TOP_FILES]],
        [{"kind": k, "count": c} for k, c in sorted(per_kind.items(), key=lambda kc: (-kc[1], kc[0]))],
    )

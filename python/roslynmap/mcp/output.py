"""What a tool handler returns: its answer, data and at most one ranked list the envelope may trim."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class RankedList:
    """The one list a tool declares: items already ranked best-first, for the current page only.

    `total` and `by_file` describe the whole filtered set, so the overflow can say what was left out.
    `narrow` holds copy-paste-ready filter suggestions built from real values in this result.
    """

    key: str
    items: list[dict[str, Any]]
    total: int
    offset: int = 0
    by_file: list[dict[str, Any]] = field(default_factory=list)
    narrow: list[str] = field(default_factory=list)
    scope_param: str | None = "file_path"
    page_param: str | None = "offset"  # None: the tool cannot page; the hint says to raise token_budget
    page_base: int = 0  # added to the next offset: line-paged lists continue at a line number
    page_tool: str | None = None  # paging continues in another tool, e.g. code_get_span
    page_args: dict[str, Any] = field(default_factory=dict)  # fixed args of that call
    elidable: tuple[str, ...] = ("snippet", "excerpt", "signature", "doc")


@dataclass
class Guidance:
    severity: str  # "hint" | "warning" | "must_follow"
    text: str


@dataclass
class ToolOutput:
    answer: str
    data: dict[str, Any]
    ranked: RankedList | None = None
    next_actions: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    guidance: Guidance | None = None
    limits_applied: dict[str, Any] = field(default_factory=dict)
    semantic_level: str | None = None
    baseline_commit: str | None = None
    preview: list[str] = field(default_factory=list)


def plural(n: int, word: str) -> str:
    """`1 caller`, `2 callers`, `3 matches`: a count with its noun as an answer line says it."""
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith(('s', 'sh', 'ch')) else 's'}"

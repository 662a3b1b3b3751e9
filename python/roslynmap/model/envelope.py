"""The response envelope every tool answers (DESIGN §9), as typed records.

TypedDicts, not classes: an envelope is JSON on the wire and in tests, and stays a plain dict; the types
let mypy check every key the envelope code reads or writes. Payloads inside `data` stay dicts (each tool
shapes its own). docs/tools.md, "The response envelope", says which meta fields appear when.
"""

from __future__ import annotations

from typing import Any, TypedDict


class TokenBudget(TypedDict):
    requested: int
    used: int
    max: int


class TokensSaved(TypedDict):
    upper_bound: int
    basis: str


class Meta(TypedDict, total=False):
    """Lean by default: only what an agent acts on. ROSLYNMAP_META=verbose adds the accounting."""

    semantic_level: str | None  # always, when the answer read an index (DESIGN §7)
    workspace_id: str | None  # lean: only when the call answered in a workspace
    overlay_revision: int
    consistency: str
    baseline_commit: str | None  # lean: 12 hex, with a workspace (the commit its baseline is for)
    limits_applied: dict[str, Any]  # only when a limit was applied
    # verbose only
    timing_ms: dict[str, float]
    token_budget: TokenBudget
    tokens_saved: TokensSaved


class Overflow(TypedDict, total=False):
    shown: int
    total: int
    by_file: list[dict[str, Any]]  # only when the budget leaves room for it
    next_offset: int
    hint: str


class ErrorBody(TypedDict, total=False):
    code: str
    message: str
    hint: str
    retryable: bool
    candidates: list[dict[str, Any]]


class Envelope(TypedDict, total=False):
    ok: bool
    answer: str
    data: dict[str, Any]
    truncated: bool
    overflow: Overflow
    next_actions: list[dict[str, Any]]
    warnings: list[str]
    hint: str
    warning: str
    must_follow: str
    error: ErrorBody
    meta: Meta

"""The vocabularies the bridge emits and the tools accept."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

SYMBOL_KINDS = (
    "Class", "Struct", "Record", "RecordStruct", "Interface", "Enum", "Delegate", "EnumMember",
    "Method", "Constructor", "Destructor", "Property", "Indexer", "Field", "Constant", "Event",
    "Operator", "Conversion",
)
TYPE_KINDS = ("Class", "Struct", "Record", "RecordStruct", "Interface", "Enum", "Delegate")
REFERENCE_KINDS = ("Call", "Read", "Write", "Instantiate", "Override", "Implementation", "TypeRef", "ImplicitCall",
                   "MockSetup", "AttributeArgument")
RESOLUTION_STATES = ("resolved", "unresolved")
SEMANTIC_LEVELS = ("full", "partial", "syntax_only")


def merge_semantic_levels(levels: list[str]) -> str:
    """`full` only when every project is full; `syntax_only` only when none has semantics."""
    if not levels:
        return "syntax_only"
    if all(level == "full" for level in levels):
        return "full"
    if all(level == "syntax_only" for level in levels):
        return "syntax_only"
    return "partial"


def bound_share(resolved: int, unresolved: int) -> float | None:
    """The share of references that bound to a symbol (4 decimals), or None when there are none."""
    total = resolved + unresolved
    return round(resolved / total, 4) if total else None


def level_evidence(projects: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """What a baseline's level rests on: references bound and not, their share, missing-reference errors,
    and how many projects are at each level (rows of the bridge's Summary() or the projects table)."""
    resolved = unresolved = missing = 0
    levels = {level: 0 for level in SEMANTIC_LEVELS}
    for p in projects:
        resolved += int(p.get("resolved_references", p.get("resolved_refs")) or 0)
        unresolved += int(p.get("unresolved_references", p.get("unresolved_refs")) or 0)
        missing += int(p.get("missing_reference_errors") or 0)
        levels[str(p.get("semantic_level") or "syntax_only")] += 1
    return {"bound_share": bound_share(resolved, unresolved), "resolved_references": resolved,
            "unresolved_references": unresolved, "missing_reference_errors": missing, "projects_by_level": levels}
# The Azure Functions host serves HTTP functions under host.json's `extensions.http.routePrefix`, `api` when unset.
FUNCTIONS_ROUTE_PREFIX = "api"

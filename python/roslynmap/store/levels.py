"""A project's semantic level and its reason, recounted in Python where the bridge's tally no longer covers the
rows (a derived baseline, a workspace overlay): the same rule as the bridge's ProjectEntry.SemanticLevel and
LevelReason, which must stay in agreement with this module.

A project without a semantic model stays syntax_only (its reason kept); missing-reference errors, or packages its
restore left unresolved, make it partial; else full.
"""

from __future__ import annotations

# How the bridge's reason names unresolved packages; an overlay keeps them from its baseline's reason.
UNRESOLVED = "restore left "


def unresolved_note(packages: list[str]) -> str:
    """`restore left 2 packages unresolved (A, B)`, as the bridge writes it (up to 5 names)."""
    names = ", ".join(packages[:5]) + (", ..." if len(packages) > 5 else "")
    return f"{UNRESOLVED}{len(packages)} package{'' if len(packages) == 1 else 's'} unresolved ({names})"


def level_and_reason(base_level: str | None, base_reason: str | None, missing: int,
                     unresolved: list[str] | None) -> tuple[str, str]:
    """`unresolved`: the packages restore left unresolved, or None to keep what `base_reason` says of them."""
    if base_level == "syntax_only":
        return "syntax_only", base_reason or ""
    note = unresolved_note(unresolved) if unresolved else None
    if unresolved is None and base_reason and UNRESOLVED in base_reason:
        note = base_reason[base_reason.index(UNRESOLVED):]
    if missing and note:
        return "partial", f"{missing} missing-reference errors; {note}"
    if missing:
        return "partial", f"{missing} missing-reference errors"
    if note:
        return "partial", note
    return "full", "compiled without missing-reference errors"

"""The vocabularies the bridge emits and the tools accept."""

from __future__ import annotations

SYMBOL_KINDS = (
    "Class", "Struct", "Record", "RecordStruct", "Interface", "Enum", "Delegate", "EnumMember",
    "Method", "Constructor", "Destructor", "Property", "Indexer", "Field", "Constant", "Event",
    "Operator", "Conversion",
)
TYPE_KINDS = ("Class", "Struct", "Record", "RecordStruct", "Interface", "Enum", "Delegate")
REFERENCE_KINDS = ("Call", "Read", "Write", "Instantiate", "Override", "Implementation", "TypeRef")
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

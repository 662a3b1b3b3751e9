"""Identifier splitting for FTS: `SqlOrderRepository` is found by `Repository`, `order` and `sql_order`."""

from __future__ import annotations

import re

_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+|\d+")
_WORDS = re.compile(r"[A-Za-z0-9_]+")


def split_identifier(name: str) -> list[str]:
    """CamelCase, acronym and underscore boundaries: `HTTPServer_v2` -> [HTTP, Server, v2]."""
    parts: list[str] = []
    for chunk in name.split("_"):
        parts.extend(_PARTS.findall(chunk))
    return parts


def name_terms(name: str) -> str:
    """The text indexed for a name: the whole identifier, then its parts (lowercased by the tokenizer)."""
    clean = name.lstrip("<").replace(">$", "").replace("<", " ").replace(">", " ")
    parts = split_identifier(clean)
    return " ".join([clean, *parts]) if len(parts) > 1 else clean


def query_words(text: str) -> list[str]:
    """The searchable words in arbitrary user text; punctuation, quotes and operators drop out."""
    return [w for w in _WORDS.findall(text) if w.strip("_")]


def fts_expression(text: str) -> str | None:
    """An FTS5 MATCH expression that can never be a syntax error: every word quoted, prefix-matched.

    Each word matches either as a whole-identifier prefix or as the AND of its CamelCase parts,
    so `OrderRepo` finds `SqlOrderRepository`.
    """
    clauses = []
    for word in query_words(text):
        parts = [p for p in split_identifier(word) if p]
        whole = f'"{word.lower()}"*'
        if len(parts) > 1:
            # Parts match within the name only: across columns they would match signatures too loosely.
            joined = " AND ".join(f'"{p.lower()}"*' for p in parts)
            clauses.append(f"({whole} OR name_terms:({joined}))")
        else:
            clauses.append(whole)
    return " AND ".join(clauses) if clauses else None

"""The shapes query/ answers with: a symbol in a list, its card, a reference (docs/tools.md).

TypedDicts, not classes: they cost nothing at run time, and the envelope (mcp/envelope.py) budgets
and serializes plain dicts, so a typed row crosses into it unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict, cast


class SymbolSummary(TypedDict):
    """The compact shape of every list of symbols: enough to decide and to call the next tool."""

    symbol_id: str
    name: str
    kind: str
    signature: str | None
    file: str | None
    line: int | None
    project: str
    external: NotRequired[Literal[True]]
    assembly: NotRequired[str]


class CardLocation(TypedDict):
    file: str | None
    line: int | None
    col: int | None
    end_line: int | None


class PartLocation(TypedDict):
    file: str
    line: int
    end_line: int


class Callee(TypedDict):
    symbol_id: str | None  # None: a call the compiler could not bind
    name: str
    kind: str | None
    calls: int


class SymbolCard(TypedDict):
    """symbols_get_card of a symbol declared in the solution."""

    symbol_id: str
    stable_id: str
    fqn: str
    name: str
    kind: str
    signature: str | None
    doc: str
    namespace: str | None
    containing_type: str | None
    visibility: str | None
    is_static: bool
    project: str
    location: CardLocation
    top_callees: list[Callee]
    other_parts: NotRequired[list[PartLocation]]
    thrown_exceptions: list[str]
    # exceptions thrown further down its calls: exception, call path, file, line (inferred, throw_helper)
    exception_paths: NotRequired[list[dict[str, Any]]]
    facts: list[dict[str, Any]]


class ExternalCard(TypedDict):
    """symbols_get_card of a framework or package symbol: metadata, and how the solution uses it."""

    symbol_id: str
    stable_id: None
    fqn: str
    name: str
    kind: str
    signature: str | None
    doc: str
    namespace: str | None
    containing_type: str | None
    external: Literal[True]
    assembly: str
    references_by_kind: dict[str, int]
    location: None
    top_callees: list[Callee]
    # facts naming it: a DbSet a context of the solution inherits from a package (Identity's `Users`)
    facts: list[dict[str, Any]]


class ReferenceItem(TypedDict):
    """One reference of refs_find."""

    file: str | None
    line: int
    col: int
    kind: str
    from_symbol_id: str | None
    excerpt: str | None
    unresolved: NotRequired[Literal[True]]
    name: NotRequired[str | None]  # unresolved: the name as written; markup inject: the injected name
    receiver: NotRequired[str]
    candidate: NotRequired[str]  # unresolved: `only` / `1 of N` when the compiler's candidates name the symbol
    markup: NotRequired[Literal["inject", "link"]]  # from Razor markup (query/refs.py markup_refs)
    link: NotRequired[str]  # markup link: the route or Controller/Action linked


def plain(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Typed rows as the plain dicts the envelope takes: the same objects (a TypedDict is a dict at run
    time), so nothing is copied."""
    return cast(list[dict[str, Any]], list(rows))

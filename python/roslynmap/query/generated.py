"""What source generators' output uses of the solution's own code: the bridge's GeneratedUse facts (one per used
symbol and generated member; docs/architecture.md, "Generated uses"). The generated code itself is not indexed
(its files are not on disk), so these facts are the only trace of a field an `[ObservableProperty]` property reads,
the method a `[RelayCommand]` wraps, or the members a `[JsonSerializable]` context serializes."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from roslynmap.query.sql import in_chunks, memo

KIND = "GeneratedUse"


@dataclass(frozen=True)
class GeneratedUse:
    generator: str  # the generator's type (`CommunityToolkit.Mvvm.SourceGenerators.RelayCommandGenerator`)
    hint_name: str  # the generated document's name (`Editor.Save.g.cs`)
    from_member: str  # the generated member using it (`P:App.Editor.SaveCommand`), its id
    mapped: str | None  # `path:line` a `#line` directive maps the use to (Razor markup), else None

    def as_dict(self) -> dict[str, str]:
        out = {"generator": self.generator, "hint_name": self.hint_name, "from": self.from_member}
        return out | ({"mapped": self.mapped} if self.mapped else {})


def _use(detail: str | None) -> GeneratedUse:
    d = json.loads(detail or "{}")
    return GeneratedUse(str(d.get("generator", "")), str(d.get("hint_name", "")), str(d.get("from", "")),
                        d.get("mapped"))


def _ordered(found: set[GeneratedUse]) -> list[GeneratedUse]:
    return sorted(found, key=lambda u: (u.generator, u.from_member, u.mapped or ""))


def uses(conn: sqlite3.Connection, symbol_id: str) -> list[GeneratedUse]:
    """The generated members using this symbol, in generator and member order."""
    return _ordered({_use(detail) for (detail,) in conn.execute(
        "SELECT detail FROM facts WHERE kind = ? AND symbol_id = ?", (KIND, symbol_id))})


def uses_of(conn: sqlite3.Connection, symbol_ids: Iterable[str]) -> dict[str, list[GeneratedUse]]:
    """`uses` for many symbols at once (impact_analyze's walk): symbol id -> its generated uses, for those that
    have any."""
    found: dict[str, set[GeneratedUse]] = {}
    for symbol_id, detail in in_chunks(conn, f"SELECT symbol_id, detail FROM facts WHERE kind = '{KIND}'"
                                       " AND symbol_id IN ({marks})", sorted(set(symbol_ids))):
        found.setdefault(symbol_id, set()).add(_use(detail))
    return {symbol_id: _ordered(used) for symbol_id, used in found.items()}


def used_by(conn: sqlite3.Connection) -> dict[str, list[tuple[str, GeneratedUse]]]:
    """Generated member -> the solution symbols it uses (graph_trace_feature goes on from a call of a generated
    `SaveCommand` into the `[RelayCommand]` method it runs), once per connection."""
    def compute() -> dict[str, list[tuple[str, GeneratedUse]]]:
        out: dict[str, list[tuple[str, GeneratedUse]]] = {}
        for symbol_id, detail in conn.execute("SELECT symbol_id, detail FROM facts WHERE kind = ? AND symbol_id IS"
                                              " NOT NULL ORDER BY symbol_id", (KIND,)):
            use = _use(detail)
            out.setdefault(use.from_member, []).append((symbol_id, use))
        return out
    return memo(conn, "generated_used_by", compute)


def place(mapped: str) -> tuple[str, int]:
    """`src/Web/Pages/Catalog.cshtml:8` -> (path, line)."""
    path, _, line = mapped.rpartition(":")
    return path, int(line) if line.isdigit() else 0


def container_type(member_id: str) -> str | None:
    """`T:A.B.Counter` for a generated member `M:A.B.Counter.BuildRenderTree(...)` (None for a type)."""
    prefix, _, name = member_id.partition(":")
    if prefix not in ("M", "P", "F", "E"):
        return None
    owner = name.split("(", 1)[0].rsplit(".", 1)[0]
    return f"T:{owner}" if owner and owner != name.split("(", 1)[0] else None


def unlisted(found: list[GeneratedUse], places: set[tuple[str, int]]) -> list[GeneratedUse]:
    """The uses not mapped to a markup line already listed (refs_find's `@inject` references: the Razor generator's
    field for `@inject ICatalogService Catalog` is that line)."""
    return [u for u in found if not u.mapped or place(u.mapped) not in places]


def from_razor(found: list[GeneratedUse]) -> bool:
    """Whether the Razor generator's code (a component's or a view's) is among these uses."""
    return any(short(u.generator) == "RazorSourceGenerator" for u in found)


def generators_by_symbol(conn: sqlite3.Connection) -> dict[str, str]:
    """Symbol id -> the (first by name) generator whose output uses it."""
    out: dict[str, str] = {}
    for symbol_id, generator in conn.execute("SELECT symbol_id, key FROM facts WHERE kind = ? AND symbol_id IS NOT"
                                             " NULL ORDER BY symbol_id, key", (KIND,)):
        out.setdefault(symbol_id, generator)
    return out


def short(generator: str) -> str:
    """`RelayCommandGenerator` for `CommunityToolkit.Mvvm.SourceGenerators.RelayCommandGenerator`."""
    return generator.rsplit(".", 1)[-1]


def summary(found: list[GeneratedUse], most: int = 3) -> str:
    """`SaveCommand (RelayCommandGenerator)`, a few, with where markup maps them."""
    parts = []
    for use in found[:most]:
        member = use.from_member.split(":", 1)[-1].split("(", 1)[0].rsplit(".", 1)[-1] or use.hint_name
        parts.append(f"{member} ({short(use.generator)}{', ' + use.mapped if use.mapped else ''})")
    return ", ".join(parts) + (", ..." if len(found) > most else "")


def headline(found: list[GeneratedUse]) -> str:
    """`1 use in source-generated code (SaveCommand (RelayCommandGenerator))`, added to an answer's count."""
    return f"{len(found)} use{'s' if len(found) != 1 else ''} in source-generated code ({summary(found)})"


# The generated uses an answer lists in `generated_uses`: MudBlazor's MudButton.Color has 198 (one per docs example),
# which, listed whole, pushed refs_find past its token budget and cost the answer its warnings.
LISTED = 20


def listed(found: list[GeneratedUse]) -> dict[str, Any]:
    """The `generated_uses` data of an answer: the first LISTED, and `generated_uses_total` when there are more."""
    return {"generated_uses": [u.as_dict() for u in found[:LISTED]],
            **({"generated_uses_total": len(found)} if len(found) > LISTED else {})}


def note(name: str, found: list[GeneratedUse]) -> str:
    """Said beside the references or callers of a symbol generated code uses."""
    shown = f"names the first {LISTED}" if len(found) > LISTED else "names them"
    return (f"Source-generated code uses {name} from {len(found)} generated member{'s' if len(found) != 1 else ''}: "
            f"{summary(found)}. Generated code is not indexed, so these uses are not listed as references; "
            f"`generated_uses` {shown} (and the markup line when the generator maps one).")

"""Correctness proof: stored references equal Roslyn's SymbolFinder.FindReferencesAsync, kinds included.

For every indexed symbol (types, methods, constructors, operators, conversions, properties, indexers,
fields, constants, events, enum members) of the testdata solutions, the set of stored references as
(file, line, column, kind) must equal what SymbolFinder returns through the bridge
(ReferenceFinder.cs), its implicit references included, each classified from Roslyn's own view of
the location: implicit (`ImplicitCall`; `Instantiate` for a target-typed `new()`), an attribute's
named argument (`AttributeArgument`), written to (`Write`), or the operation it sits in (an
invocation or user-defined operator is a `Call`, a creation an `Instantiate`, anything else a
`Read`); a type name is an `Instantiate` in a creation,
an `Implementation` in a base list (interfaces) and a `TypeRef` elsewhere. References no indexed
symbol encloses (assembly attributes, using directives) are kept: the store is read with an outer
join on the referencing symbol.

What is left out, exactly (EXCLUDED below, README "How the references are checked"):

- `Override` rows and member-level `Implementation` rows: they sit on declarations, not uses, and
  SymbolFinder reports them as definitions.
- references inside XML doc comments (`cref`): SymbolFinder reports them, the index leaves them out.
- references to framework and package (metadata) symbols: the proof asks SymbolFinder about the
  solution's own symbols only, and the walker records no implicit call into metadata
  (a `List<T>` enumerator, a `Task` awaiter).

Implicit calls the index records and SymbolFinder does not report are matched to their construct
one by one and counted (ONLY_INDEXED), never ignored. Two renderings differ and are mapped, not
excluded: SymbolFinder files the type name in `new T()` and in an attribute under the constructor
(the index records `new T()` against both, an attribute as a `TypeRef` of the type), so a type's side
includes its constructors' locations, an attribute's as a `TypeRef`; and a constructor named by an
attribute is reported by SymbolFinder where the index has the type's `TypeRef` (counted as
attribute_constructors).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from roslynmap.query import graph
from roslynmap.roslyn.client import WorkerClient
from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import inspect_repo

from tests.conftest import indexed_copy

AGREEMENT: dict[str, dict[str, Any]] = {}
Ref = tuple[str, int, int, str]  # file, line, column, kind

# Implicit calls the index records and SymbolFinder does not report (checked one by one: only_indexed).
ONLY_INDEXED = {
    "await_completion": "an await's IsCompleted and GetResult (SymbolFinder reports GetAwaiter only)",
    "query_clause": "the method a query clause calls (where -> Where, select -> Select, ...)",
    "implicit_conversion": "a user-defined implicit conversion operator applied without a cast",
    "await_using": "the DisposeAsync an `await using` calls (SymbolFinder reports a using's Dispose only)",
    "cast_through_base_conversion": "a conversion operator to a base type run by a cast to a derived one "
                                    "(`(Leaf)9` runs `implicit operator Token(int)`)",
}
EXCLUDED = {
    "declarations": "Override rows and member-level Implementation rows (SymbolFinder reports definitions)",
    "doc_comments": "cref references in XML doc comments (SymbolFinder's doc_comments list)",
    "metadata": "references to framework and package symbols (not asked; no implicit calls into metadata)",
}


def stored(conn: sqlite3.Connection, symbol_id: str) -> tuple[set[Ref], int]:
    """The stored references to `symbol_id` but the excluded declarations, and how many of them no
    indexed symbol encloses (outer join: they are compared too)."""
    rows = conn.execute(
        "SELECT f.path, r.line, r.col, r.kind, r.from_key IS NULL FROM refs r JOIN files f ON f.id = r.file_id"
        " LEFT JOIN ids src ON src.key = r.from_key"
        " WHERE r.target_key = (SELECT key FROM ids WHERE symbol_id = ?) AND r.kind != 'Override'"
        " AND NOT (r.kind = 'Implementation' AND coalesce(src.symbol_id, '') NOT LIKE 'T:%')",
        (symbol_id,)).fetchall()
    return {(r[0], r[1], r[2], r[3]) for r in rows}, sum(r[4] for r in rows)


def theirs(oracle: dict[str, Any], symbol_id: str) -> set[Ref]:
    """SymbolFinder's references, implicit ones included, in the index's rendering (module doc)."""
    found = {(f, line, col, kind) for f, line, col, kind in [*oracle["locations"], *oracle["implicit"]]}
    if symbol_id.startswith("T:"):
        ctor_prefix = "M:" + symbol_id[2:] + ".#ctor"
        found |= {(f, line, col, kind if kind == "Instantiate" else "TypeRef")
                  for f, line, col, kind, target in oracle["cascaded"] if target.startswith(ctor_prefix)}
    return found


QUERY_KEYWORDS = ("from", "where", "select", "orderby", "join", "let", "group")


def only_indexed(root: Path, symbol_id: str, ref: Ref) -> str | None:
    """Which implicit call SymbolFinder does not report this stored reference is (ONLY_INDEXED), if any."""
    file, line, col, kind = ref
    text = (root / file).read_text().splitlines()[line - 1][col - 1:]
    if kind == "Call" and (".op_Implicit(" in symbol_id or ".op_Explicit(" in symbol_id) and text.startswith("("):
        return "cast_through_base_conversion"
    if kind != "ImplicitCall":
        return None
    if ".op_Implicit(" in symbol_id:
        return "implicit_conversion"
    if text.startswith("await") and symbol_id.rsplit(".", 1)[-1] in ("IsCompleted", "GetResult"):
        return "await_completion"
    if text.startswith("using") and symbol_id.endswith(".DisposeAsync"):
        return "await_using"
    if text.startswith(QUERY_KEYWORDS):
        return "query_clause"
    return None


def compare(repo: Path, label: str) -> dict[str, Any]:
    info = inspect_repo(repo)
    conn = sqlite3.connect(baseline_path(info.repo_id, info.commit))
    solution = next(p for p in sorted(repo.rglob("*")) if p.suffix in {".slnx", ".csproj"})
    worker = WorkerClient()
    summary: dict[str, Any] = {"symbols": 0, "agree": 0, "references": 0, "by_kind": {}, "no_enclosing_symbol": 0,
                               "only_indexed": dict.fromkeys(ONLY_INDEXED, 0), "attribute_constructors": 0,
                               "doc_comments": 0, "unexplained": []}
    try:
        rows = conn.execute(
            "SELECT s.symbol_id, p.name FROM symbols s JOIN projects p ON p.id = s.project_id ORDER BY s.id").fetchall()
        for symbol_id, project in rows:
            oracle = worker.request({"op": "find_references", "repo_root": str(info.root),
                                     "solution": str(solution), "symbol_id": symbol_id, "project": project})
            assert oracle["resolved"], symbol_id
            expected = theirs(oracle, symbol_id)
            ours, no_enclosing = stored(conn, symbol_id)
            missing = expected - ours
            if ".#ctor" in symbol_id:  # an attribute naming this constructor is stored against its type
                of_type = stored(conn, "T:" + symbol_id[2:].split(".#ctor")[0])[0]
                type_refs = {r[:3] for r in of_type if r[3] == "TypeRef"}
                attribute = {r for r in missing if r[:3] in type_refs}
                summary["attribute_constructors"] += len(attribute)
                missing -= attribute
            extra = set()
            for ref in ours - expected:
                construct = only_indexed(info.root, symbol_id, ref)
                if construct is None:
                    extra.add(ref)
                else:
                    summary["only_indexed"][construct] += 1
            summary["symbols"] += 1
            summary["references"] += len(ours)
            summary["no_enclosing_symbol"] += no_enclosing
            summary["doc_comments"] += len(oracle["doc_comments"])
            for ref in ours:
                summary["by_kind"][ref[3]] = summary["by_kind"].get(ref[3], 0) + 1
            if not extra and not missing:
                summary["agree"] += 1
            else:
                summary["unexplained"].append({"symbol_id": symbol_id, "extra": sorted(extra),
                                               "missing": sorted(missing)})
    finally:
        worker.close()
    AGREEMENT[label] = summary
    return summary


def test_shop_references_equal_symbolfinder(shop: Path) -> None:
    summary = compare(shop, "testdata/Shop")
    assert summary["unexplained"] == []
    assert summary["symbols"] == 135 and summary["agree"] == 135
    assert summary["references"] == 279 and summary["by_kind"] == {
        "Read": 103, "TypeRef": 76, "Call": 41, "Instantiate": 35, "Write": 20, "Implementation": 3,
        "ImplicitCall": 1}  # `using var service = new OrderService(...)` calls OrderService.Dispose
    assert summary["only_indexed"] == dict.fromkeys(ONLY_INDEXED, 0) and summary["attribute_constructors"] == 0


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    return indexed_copy("Broken", tmp_path_factory.mktemp("oracle") / "Broken", home, exit_code=2)


def test_broken_references_equal_symbolfinder(broken: Path) -> None:
    summary = compare(broken, "testdata/Broken")
    assert summary["unexplained"] == []
    assert summary["symbols"] == 9 and summary["agree"] == 9
    assert summary["references"] == 6 and summary["by_kind"] == {"Call": 3, "TypeRef": 1, "Instantiate": 1, "Read": 1}


@pytest.fixture(scope="module")
def implicit(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    return indexed_copy("Implicit", tmp_path_factory.mktemp("oracle") / "Implicit", home)


def test_implicit_calls_equal_symbolfinder(implicit: Path) -> None:
    """testdata/Implicit makes every implicit call the walker records: foreach, deconstruction (in a
    foreach too), collection initializer, await, using and await using, query syntax, a user-defined
    implicit conversion; and an assembly attribute, a reference no indexed symbol encloses."""
    summary = compare(implicit, "testdata/Implicit")
    assert summary["unexplained"] == []
    # Token, its operator and Leaf (Shapes.cs) add 3 symbols; `(Leaf)9` a TypeRef and the operator's Call.
    # Signatures.cs: 19 symbols; types named in signatures (read from the declared symbols: 22 TypeRefs, of them
    # `Derived.Nested` naming Derived where Nested is Base's), and attributes with named arguments on a field, an
    # enum member and an accessor (a named argument is an AttributeArgument, SymbolFinder's Write: set when the
    # attribute is read, by no member; 4 of them).
    assert (summary["symbols"], summary["agree"], summary["references"]) == (63, 63, 103)
    assert summary["by_kind"] == {"ImplicitCall": 20, "Instantiate": 21, "TypeRef": 34, "Write": 10, "Read": 12,
                                  "Call": 2, "AttributeArgument": 4}
    assert summary["no_enclosing_symbol"] == 1
    assert summary["only_indexed"] == {"await_completion": 2, "query_clause": 2, "implicit_conversion": 1,
                                       "await_using": 1, "cast_through_base_conversion": 1}
    assert summary["attribute_constructors"] == 1


MAIN = "M:Program.<Main>$(System.String[])"


def test_implicit_calls_are_stored_where_the_compiler_makes_them(implicit: Path) -> None:
    info = inspect_repo(implicit)
    conn = sqlite3.connect(baseline_path(info.repo_id, info.commit))
    rows = conn.execute(
        "SELECT t.symbol_id, r.line, r.col, s.symbol_id FROM refs r JOIN ids t ON t.key = r.target_key"
        " JOIN ids s ON s.key = r.from_key WHERE r.kind = 'ImplicitCall'"
        " ORDER BY r.line, r.col, t.symbol_id").fetchall()
    assert rows == [
        ("M:Implicit.Range.GetEnumerator", 4, 1, MAIN),  # foreach (var i in new Range(3))
        ("M:Implicit.RangeEnumerator.MoveNext", 4, 1, MAIN),
        ("P:Implicit.RangeEnumerator.Current", 4, 1, MAIN),
        ("M:Implicit.Point.Deconstruct(System.Int32@,System.Int32@)", 7, 1, MAIN),  # var (x, y) = new Point(1, 2)
        ("M:Implicit.Bag.Add(System.Int32)", 8, 21, MAIN),  # new Bag { 1, 2, 3 }
        ("M:Implicit.Bag.Add(System.Int32)", 8, 24, MAIN),
        ("M:Implicit.Bag.Add(System.Int32)", 8, 27, MAIN),
        ("M:Implicit.Later.GetAwaiter", 9, 14, MAIN),  # await new Later()
        ("M:Implicit.LaterAwaiter.GetResult", 9, 14, MAIN),
        ("P:Implicit.LaterAwaiter.IsCompleted", 9, 14, MAIN),
        ("M:Implicit.Lease.Dispose", 11, 1, MAIN),  # using (var lease = new Lease())
        ("M:Implicit.Lease.Dispose", 15, 1, MAIN),  # using var held = new Lease();
        ("M:Implicit.Pool.DisposeAsync", 16, 7, MAIN),  # await using (var pool = new Pool())
        ("M:Implicit.Point.Deconstruct(System.Int32@,System.Int32@)", 17, 10, MAIN),  # foreach (var (px, py) in ...)
        ("M:Implicit.Source.Where(System.Func{System.Int32,System.Boolean})", 20, 36, MAIN),  # where n > 0
        ("M:Implicit.Source.Select(System.Func{System.Int32,System.Int32})", 20, 48, MAIN),  # select n + 1
        ("M:Implicit.Point.op_Implicit(System.Int32)~Implicit.Point", 21, 19, MAIN),  # Point converted = 7;
        ("M:Implicit.Range.GetEnumerator", 30, 9, "M:Users.Sum(Implicit.Range)"),
        ("M:Implicit.RangeEnumerator.MoveNext", 30, 9, "M:Users.Sum(Implicit.Range)"),
        ("P:Implicit.RangeEnumerator.Current", 30, 9, "M:Users.Sum(Implicit.Range)"),
    ]
    # graph_callers counts them: a foreach calls the enumerator pattern.
    callers = graph.callers(conn, "M:Implicit.Range.GetEnumerator", depth=1, limit_per_level=10)
    assert [(e["from"], e["kind"], e["line"]) for e in callers.edges] == [
        (MAIN, "ImplicitCall", 4), ("M:Users.Sum(Implicit.Range)", "ImplicitCall", 30)]

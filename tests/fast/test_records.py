"""The typed bridge records (model/records.py): decoded in one place, written by the real writer, and an
implicit call (ImplicitCall) walked by the graph like any call."""

from __future__ import annotations

from pathlib import Path

import pytest
from roslynmap.mcp import api
from roslynmap.model.records import (
    Batch,
    DiagnosticRecord,
    ExternalRecord,
    FactRecord,
    FileRecord,
    LocationRecord,
    RefRecord,
    RelationRecord,
    decode_batch,
    merge_batches,
)
from roslynmap.store import derive
from roslynmap.store.paths import baseline_path
from roslynmap.store.reader import open_baseline

from tests.fast.batches import SAVE, SQL_SAVE, Sample, ref, shop, short, symbol, write_baseline


def test_a_bridge_batch_decodes_into_typed_records() -> None:
    raw = """{"files": [["src/A.cs", 0, 12]],
      "symbols": [["T:A", "sym_0123456789abcdef", 0, "A", "Class", "A", "public class A", "", "", null,
                   "src/A.cs", 1, 14, 12, 2, "public", false, 0]],
      "locations": [["T:A", 0, "src/B.cs", 3, 5, 9]],
      "refs": [[0, 1, 0, 2, 0, 3, 4, 9, 13, 4, 5, ["M:A.Save(System.Int32)"]],
               [2, 6, 7, 0, 0, 3, 1, 2, 3, 8, 0, null]],
      "strings": [null, "Save", "T:A", "src/A.cs", "Call", "_repo", "A", "Class", "TypeRef"],
      "relations": [["T:A", null, "IBase", "interface", 0]],
      "diagnostics": [[0, null, 0, 0, "error", "CS0246", "missing"]],
      "externals": [["T:System.Object", "Object", "Class", "System.Object", null, "System.Runtime", "class Object",
                     "System"]],
      "facts": [["Route", "M:A.Get", 0, "src/A.cs", 7, 6, "high", "/a", "{}"]]}"""
    batch = decode_batch(raw)
    assert batch.files == [FileRecord("src/A.cs", 0, 12)]
    (sym,) = batch.symbols
    assert (sym.symbol_id, sym.kind, sym.container, sym.file, sym.line, sym.end_line, sym.is_static) == (
        "T:A", "Class", None, "src/A.cs", 1, 12, False)
    assert batch.locations == [LocationRecord("T:A", 0, "src/B.cs", 3, 5, 9)]
    unresolved, type_ref = batch.refs
    assert (unresolved.target, unresolved.target_name, unresolved.receiver, unresolved.candidates) == (
        None, "Save", "_repo", ["M:A.Save(System.Int32)"])
    assert type_ref == RefRecord("T:A", "A", "Class", None, 0, "src/A.cs", 1, 2, 3, "TypeRef", None, None)
    assert batch.relations == [RelationRecord("T:A", None, "IBase", "interface", 0)]
    assert batch.diagnostics == [DiagnosticRecord(0, None, 0, 0, "error", "CS0246", "missing")]
    assert batch.externals == [ExternalRecord("T:System.Object", "Object", "Class", "System.Object", None,
                                              "System.Runtime", "class Object", "System")]
    assert batch.facts == [FactRecord("Route", "M:A.Get", 0, "src/A.cs", 7, 6, "high", "/a", "{}")]
    # A batch names only the kinds it has.
    assert decode_batch('{"refs": [[0, 1, 0, 0, 0, 2, 1, 1, 2, 3, 0, null]], "strings": [null, "X", "a.cs", "Call"]}'
                        ) == Batch(
        refs=[RefRecord(None, "X", None, None, 0, "a.cs", 1, 1, 2, "Call", None)])


LOOP = """namespace Shop;

public class Range { public Enumerator GetEnumerator() => new Enumerator(); }

public class Report
{
    public int Sum(Range range) { var s = 0; foreach (var i in range) s += i; return s; }
}
"""
GET_ENUMERATOR = "M:Shop.Range.GetEnumerator"
SUM = "M:Shop.Report.Sum(Shop.Range)"


@pytest.fixture(scope="module")
def loop_root(tmp_path_factory: pytest.TempPathFactory, home: Path) -> str:
    """A foreach over a solution type: the loop calls Range.GetEnumerator (ImplicitCall, at `foreach`)."""
    path = "src/Shop/Loop.cs"
    sample = Sample({path: LOOP})
    sample.symbols += [
        symbol("T:Shop.Range", "Range", "Class", path, 3, 3),
        symbol(GET_ENUMERATOR, "GetEnumerator", "Method", path, 3, 3, container="T:Shop.Range"),
        symbol("T:Shop.Report", "Report", "Class", path, 5, 8),
        symbol(SUM, "Sum", "Method", path, 7, 7, container="T:Shop.Report"),
    ]
    sample.refs += [ref("T:Shop.Range", "Range", "Class", SUM, path, 7, 20, "TypeRef"),
                    ref(GET_ENUMERATOR, "GetEnumerator", "Method", SUM, path, 7, 46, "ImplicitCall")]
    repo = write_baseline(tmp_path_factory.mktemp("fast") / "Loop", sample)
    conn = open_baseline(baseline_path(repo.repo_id, repo.commit))
    rows = conn.execute("SELECT kind, line, col, end_col FROM refs WHERE kind = 'ImplicitCall'").fetchall()
    assert [tuple(r) for r in rows] == [("ImplicitCall", 7, 46, 59)]
    return str(repo.root)


def test_graph_callers_and_callees_walk_implicit_calls(loop_root: str) -> None:
    allowed = api.confinement([loop_root])
    callers = api.call("graph_callers", {"symbol_id": GET_ENUMERATOR}, loop_root, allowed)
    assert [(n["symbol_id"], n["depth"], [e["kind"] for e in n["edges"]]) for n in callers["data"]["nodes"]] == [
        (short(SUM), 1, ["ImplicitCall"])]
    # graph_callees lists calls only by default (issue 14): an implicit call is a call
    callees = api.call("graph_callees", {"symbol_id": SUM}, loop_root, allowed)
    assert [(n["symbol_id"], n["depth"], [e["kind"] for e in n["edges"]]) for n in callees["data"]["nodes"]] == [
        (short(GET_ENUMERATOR), 1, ["ImplicitCall"])]
    refs = api.call("refs_find", {"symbol_id": GET_ENUMERATOR, "kind": ["implicitcall"]}, loop_root, allowed)
    assert [(r["line"], r["col"], r["kind"]) for r in refs["data"]["references"]] == [(7, 46, "ImplicitCall")]


def test_an_ancestor_replays_as_the_records_it_was_written_from(tmp_path: Path, home: Path) -> None:
    """Derived baselines (store/derive.py) copy an ancestor's rows as the same records the bridge sends: a
    replayed batch equals the one written, and its shape equals the ancestor's (else every file would widen)."""
    sample = shop()
    orders = "src/Shop/Orders.cs"
    sample.facts.append(FactRecord("Route", SAVE, 0, orders, 6, 5, "high", "/orders", '{"method":"POST"}'))
    sample.diagnostics.append(DiagnosticRecord(0, orders, 29, 48, "error", "CS1061", "no Validate"))
    sample.refs.append(RefRecord(None, "Find", None, SAVE, 0, orders, 6, 9, 13, "Call", None, [SQL_SAVE]))
    repo = write_baseline(tmp_path / "Shop", sample)
    conn = derive.open_ancestor(baseline_path(repo.repo_id, repo.commit))
    try:
        replayed = derive.replay_batch(conn, [orders])
        written = sample.batch()
        assert replayed.files == [f for f in written.files if f.path == orders]
        assert replayed.symbols == [s for s in written.symbols if s.file == orders]
        assert replayed.refs == [r for r in written.refs if r.file == orders]
        assert replayed.relations == written.relations  # both declared in Orders.cs
        assert replayed.facts == sample.facts[-1:] and replayed.diagnostics == sample.diagnostics[-1:]
        assert (replayed.locations, replayed.externals) == ([], [])
        both = merge_batches([replayed, derive.replay_batch(conn, ["src/Shop/Callers.cs"])])
        assert len(both.files) == 2 and len(both.symbols) == len(written.symbols)
        assert derive.batch_symbol_ids(both) == {s.symbol_id for s in written.symbols}
        text = sample.files[orders]
        assert derive.normalized(derive.batch_shape(written, orders, text)) == derive.normalized(
            derive.ancestor_shape(conn, orders, text))
    finally:
        conn.close()

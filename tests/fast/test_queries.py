"""Query results over the hand-written Shop baseline (tests/fast/batches.py), through the real envelope."""

from __future__ import annotations

import sqlite3

import pytest
from roslynmap.model import settings
from roslynmap.store.paths import baseline_path
from roslynmap.store.reader import open_baseline, read_meta
from roslynmap.store.repo import RepoInfo
from roslynmap.store.schema import SCHEMA_VERSION

from tests.fast.batches import CALLERS, SAVE, SQL_SAVE, caller_line, short
from tests.fast.conftest import Call


def test_the_writer_stores_every_record_and_interns_every_referenced_id(shop_repo: RepoInfo) -> None:
    conn = open_baseline(baseline_path(shop_repo.repo_id, shop_repo.commit))
    count = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
             for t in ("files", "symbols", "refs", "relations", "ids", "symbols_fts")}
    assert count == {"files": 2, "symbols": 12 + CALLERS, "refs": 6 + CALLERS, "relations": 2,
                     # the 2 Saves, the 3 repository types, Place, Order.Id and the 40 callers
                     "ids": 7 + CALLERS, "symbols_fts": 12 + CALLERS}
    meta = read_meta(conn)
    assert meta["schema_version"] == SCHEMA_VERSION and meta["semantic_level"] == "full"
    assert meta["build_id"].startswith("build-")
    keys = dict(conn.execute("SELECT symbol_id, key FROM ids").fetchall())
    assert conn.execute("SELECT count(*) FROM refs WHERE target_key = ?", (keys[SAVE],)).fetchone()[0] == 42
    row = conn.execute("SELECT project_id, line_count FROM files WHERE path = 'src/Shop/Callers.cs'").fetchone()
    assert tuple(row) == (0, 6 + 2 * CALLERS + 2)  # 6 header lines, 2 per caller, "}", and the empty last line


def test_a_published_baseline_is_read_only(shop_repo: RepoInfo) -> None:
    conn = open_baseline(baseline_path(shop_repo.repo_id, shop_repo.commit))
    try:
        conn.execute("DELETE FROM symbols")
    except sqlite3.OperationalError as exc:
        assert "readonly" in str(exc)
    else:
        raise AssertionError("a baseline connection accepted a write")


def test_symbols_search_ranks_and_counts(call: Call) -> None:
    env = call("symbols_search", query="OrderRepository")
    assert env["ok"] and env["answer"] == "3 symbols match 'OrderRepository'."
    assert env["data"]["by_kind"] == [{"kind": "Class", "count": 2}, {"kind": "Interface", "count": 1}]
    assert [r["symbol_id"] for r in env["data"]["results"]] == [
        "T:SqlOrderRepository", "T:CachedOrderRepository", "T:IOrderRepository"]
    assert env["data"]["results"][2] == {"symbol_id": "T:IOrderRepository", "name": "IOrderRepository",
                                         "kind": "Interface", "signature": "public interface IOrderRepository",
                                         "file": "src/Shop/Orders.cs", "line": 4, "project": "Shop"}
    assert env["truncated"] is False and env["meta"] == {"semantic_level": "full"}  # lean meta: nothing else to say


def test_refs_find_reports_every_reference_with_its_line_and_excerpt(call: Call) -> None:
    env = call("refs_find", symbol_id=SAVE, token_budget=10000)
    assert env["answer"] == "42 references to IOrderRepository.Save (41 Call, 1 Implementation)."
    refs = env["data"]["references"]
    assert len(refs) == 42 and env["truncated"] is False
    assert refs[0] == {"file": "src/Shop/Callers.cs", "line": 7, "col": 49, "kind": "Call",
                       "from_symbol_id": "M:Callers.Call00(Order)",
                       "excerpt": "public void Call00(Order order) => _repo.Save(order);"}
    assert [(r["file"], r["line"], r["kind"]) for r in refs[-2:]] == [
        ("src/Shop/Orders.cs", 16, "Implementation"), ("src/Shop/Orders.cs", 29, "Call")]


def test_refs_find_filters_by_kind(call: Call) -> None:
    env = call("refs_find", symbol_id=SAVE, kind="Implementation")
    assert [(r["from_symbol_id"], r["line"]) for r in env["data"]["references"]] == [(short(SQL_SAVE), 16)]


def test_types_hierarchy_finds_classes_below_an_implementer(call: Call) -> None:
    """IOrderRepository <- SqlOrderRepository <- CachedOrderRepository: the grandchild implements it too."""
    env = call("types_hierarchy", symbol_id="T:Shop.IOrderRepository")
    assert [(d["symbol_id"], d["depth"], d["relation"], d.get("inherited", False))
            for d in env["data"]["descendants"]] == [
        ("T:SqlOrderRepository", 1, "implements", False),
        ("T:CachedOrderRepository", 2, "implements", True)]


def test_graph_callers_lists_every_caller(call: Call) -> None:
    env = call("graph_callers", symbol_id=SAVE, token_budget=10000)
    assert env["answer"] == "41 bound callers of IOrderRepository.Save within depth 1."
    nodes = env["data"]["nodes"]
    assert len(nodes) == 41
    assert (nodes[3]["symbol_id"], nodes[3]["line"], nodes[3]["edges"]) == (
        "M:Callers.Call03(Order)", caller_line(3), [{"kind": "Call", "count": 1, "line": caller_line(3)}])
    assert "M:OrderService.Place(Order)" in {n["symbol_id"] for n in nodes}


def test_a_declared_member_asked_for_by_name_is_pointed_at(call: Call) -> None:
    """`name=` lists unbound calls; a declared `Type.Member` there (Practical.CleanArchitecture's
    DeleteProductCommandHandler.HandleAsync) is named, not denied."""
    env = call("graph_callers", name="OrderService.Place")
    assert (env["error"]["code"], env["error"]["message"], env["error"]["candidates"]) == (
        "NOT_FOUND", "No unbound reference matches 'OrderService.Place', but it is a declared symbol.",
        [{"symbol_id": "M:OrderService.Place(Order)"}])


def test_symbols_get_card(call: Call) -> None:
    env = call("symbols_get_card", symbol_id="T:Shop.IOrderRepository")
    assert env["answer"] == "Interface IOrderRepository in src/Shop/Orders.cs:4-7 (Shop)."
    assert env["data"]["doc"] == "Stores orders."
    assert env["data"]["location"] == {"file": "src/Shop/Orders.cs", "line": 4, "col": 5, "end_line": 7}


def test_an_unknown_symbol_is_an_error_with_a_hint(call: Call) -> None:
    env = call("refs_find", symbol_id="M:Shop.Nope.Save(Shop.Order)")
    assert env["ok"] is False
    assert env["error"]["code"] == "NOT_FOUND"
    assert env["error"]["hint"] == ("Did you mean one of the candidates? Otherwise search: "
                                    "symbols_search(query=\"Save\").")
    assert [c["symbol_id"] for c in env["error"]["candidates"]][:2] == [short(SAVE), short(SQL_SAVE)]


def test_graph_callees_lists_calls_only_unless_asked(call: Call) -> None:
    """Place calls Save (its implementation by dispatch), reads Order.Id and makes an unbound call, Validate."""
    env = call("graph_callees", symbol_id="M:Shop.OrderService.Place(Shop.Order)")
    assert env["answer"] == ("2 callees of OrderService.Place within depth 1 (1 edge through "
                             "interface/virtual dispatch), + 1 unbound call (Validate).")
    assert [n["symbol_id"] for n in env["data"]["nodes"]] == [short(SAVE), short(SQL_SAVE)]
    assert env["warnings"] == ["1 unbound call is counted, not listed: all_edges=true lists them (and property "
                               "reads)."]
    every = call("graph_callees", symbol_id="OrderService.Place", all_edges=True)
    assert [(n.get("symbol_id"), n["name"]) for n in every["data"]["nodes"]] == [
        ("P:Order.Id", "Id"), (short(SAVE), "Save"), (short(SQL_SAVE), "Save"), (None, "Validate")]


def test_short_ids_are_accepted_back_and_name_one_symbol(call: Call) -> None:
    assert call("symbols_get_card", symbol_id="M:IOrderRepository.Save(Order)")["data"]["fqn"] == \
        "Shop.IOrderRepository.Save"
    card = call("symbols_get_card", symbol_id="T:Callers")
    assert (card["data"]["symbol_id"], card["data"]["fqn"]) == ("T:Callers", "Shop.Callers")
    assert call("refs_find", symbol_id="M:IOrderRepository.Save(Order)", limit=1)["answer"].startswith(
        "42 references to IOrderRepository.Save")


def test_full_ids_when_asked(call: Call, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(settings.IDS, "full")
    env = call("refs_find", symbol_id=short(SAVE), kind="Implementation")
    assert [r["from_symbol_id"] for r in env["data"]["references"]] == [SQL_SAVE]
    assert env["data"]["symbol"]["symbol_id"] == SAVE


def test_a_plain_name_works_wherever_an_id_is_expected(call: Call) -> None:
    card = call("symbols_get_card", symbol_id="OrderService")
    assert card["ok"] and card["data"]["symbol_id"] == "T:OrderService"
    span = call("symbols_get_definition_span", symbol_id="OrderService.Place")
    assert span["answer"] == "Method OrderService.Place: src/Shop/Orders.cs lines 27-30 of 31."
    where = call("symbols_resolve", symbol_id="Place")
    assert where["answer"].startswith("M:OrderService.Place(Order) is at src/Shop/Orders.cs:27:")
    ambiguous = call("symbols_get_card", symbol_id="Save")
    assert ambiguous["error"]["code"] == "AMBIGUOUS"
    assert [c["symbol_id"] for c in ambiguous["error"]["candidates"]] == [short(SAVE), short(SQL_SAVE)]


def test_a_typo_offers_the_symbol_meant(call: Call) -> None:
    env = call("symbols_get_card", symbol_id="OrderService.Placee")
    assert env["error"]["code"] == "NOT_FOUND"
    assert env["error"]["candidates"] == [{"symbol_id": "M:OrderService.Place(Order)", "kind": "Method",
                                           "file": "src/Shop/Orders.cs", "line": 27}]
    doc_id = call("types_hierarchy", symbol_id="T:Shop.OrderServise")
    assert [c["symbol_id"] for c in doc_id["error"]["candidates"]] == ["T:OrderService"]
    nothing = call("symbols_get_card", symbol_id="Zzzzzz")
    assert nothing["error"]["hint"] == "No close name; search: symbols_search(query=\"Zzzzzz\")."
    assert "candidates" not in nothing["error"]


def test_the_folded_list_tools_answer_by_kind_and_name_their_new_call(call: Call) -> None:
    env = call("surfaces_list", kind="di", filter="Repository")
    assert env["answer"] == "0 DI registrations." and env["data"]["registrations"] == []
    assert call("surfaces_list", kind="exceptions", symbol_id="OrderService.Place")["answer"] == \
        "0 thrown exceptions."
    former = call("surfaces_list_di_registrations", service_filter="Repository")
    assert former["error"] == {
        "code": "INVALID_ARGUMENT", "message": "'surfaces_list_di_registrations' is now surfaces_list(kind=\"di\").",
        "hint": "Call surfaces_list(kind=\"di\"); pass filter instead of service_filter; pass level instead of "
                "lifetime.", "retryable": False, "candidates": [{"tool": "surfaces_list"}]}


def test_migrations_are_ordered_by_their_numbers() -> None:
    """A FluentMigrator folder names its files by version: `9_x.cs` runs before `10_y.cs` (text order says after),
    which decides whether a table's last mention drops it."""
    from roslynmap.query.surfaces import _migration_order

    files = ["Migration/10_rename.cs", "Migration/9_create.cs", "Migration/100_drop.cs", "Migration/011_add.cs"]
    assert sorted(files, key=_migration_order) == [
        "Migration/9_create.cs", "Migration/10_rename.cs", "Migration/011_add.cs", "Migration/100_drop.cs"]


def test_an_answer_lists_the_first_generated_uses_and_counts_them_all() -> None:
    """MudBlazor's MudButton.Color: 198 generated uses (one per docs example) listed whole pushed refs_find past its
    token budget, which then dropped the answer's warnings."""
    from roslynmap.query import generated

    razor = "Microsoft.NET.Sdk.Razor.SourceGenerators.RazorSourceGenerator"
    found = [generated.GeneratedUse(razor, f"Pages/P{n}_razor.g.cs", f"M:App.P{n}.BuildRenderTree", f"P{n}.razor:3")
             for n in range(25)]
    data = generated.listed(found)
    assert [u["hint_name"] for u in data["generated_uses"]] == [f"Pages/P{n}_razor.g.cs" for n in range(20)]
    assert data["generated_uses_total"] == 25
    assert generated.note("Color", found).endswith(
        "`generated_uses` names the first 20 (and the markup line when the generator maps one).")
    assert generated.listed(found[:3]) == {"generated_uses": [u.as_dict() for u in found[:3]]}
    relay = "CommunityToolkit.Mvvm.SourceGenerators.RelayCommandGenerator"
    assert generated.from_razor(found[:1])
    assert not generated.from_razor([generated.GeneratedUse(relay, "a.g.cs", "P:A.B", None)])

"""Envelope budgeting at small budgets, exactly: what an agent sees when token_budget is tight (issue 14:
results first, summaries with what is left, hints that never repeat the budget given), lean meta, and the
text content."""

from __future__ import annotations

import json
import re
from typing import cast

import pytest
from roslynmap.mcp.envelope import CHARS_PER_TOKEN, MAX_BUDGET, MIN_BUDGET, clamp_budget, estimate_tokens, raise_to
from roslynmap.mcp.preview import render
from roslynmap.model import settings
from roslynmap.model.envelope import Envelope

from tests.fast.batches import SAVE
from tests.fast.conftest import Call


def test_clamp_budget() -> None:
    assert clamp_budget(None) == (3000, 3000)
    assert clamp_budget(5) == (5, MIN_BUDGET)
    assert clamp_budget(10**6) == (10**6, MAX_BUDGET)


def test_estimate_tokens_is_json_length_over_four_rounded_up() -> None:
    assert CHARS_PER_TOKEN == 4
    assert estimate_tokens({"a": 1}) == 2  # {"a":1} is 7 bytes
    assert estimate_tokens("x" * 10) == 3  # "xxxxxxxxxx" is 12 bytes


@pytest.mark.parametrize("budget", [300, 400, 1000])
def test_an_answer_stays_within_its_budget(call: Call, budget: int) -> None:
    for tool, args in [("refs_find", {"symbol_id": SAVE}), ("symbols_search", {"query": "Call"}),
                       ("graph_callers", {"symbol_id": SAVE})]:
        env = call(tool, **args, token_budget=budget)
        assert estimate_tokens(env) <= budget, tool
        assert len(render(cast(Envelope, env), budget)) <= budget * CHARS_PER_TOKEN, tool


def test_refs_find_at_305_shows_references_first_then_what_still_fits(call: Call) -> None:
    env = call("refs_find", symbol_id=SAVE, token_budget=305)
    assert env["answer"] == "42 references to IOrderRepository.Save (41 Call, 1 Implementation)."
    assert [r["from_symbol_id"] for r in env["data"]["references"]] == [
        f"M:Callers.Call0{i}(Order)" for i in range(4)]
    assert "by_kind" not in env["data"] and "by_file" not in env["overflow"]  # summaries only with what is left
    assert env["truncated"] is True
    assert env["overflow"] == {
        "shown": 4, "total": 42, "next_offset": 4,
        "hint": "Showing 4 of 42 (refs_find). Narrow: kind=\"Call\" (41 of them), kind=\"Implementation\" "
                "(1 of them); or scope: file_path=\"src/Shop/Callers.cs\" (40 there); or page: offset=4"}
    assert env["meta"] == {"semantic_level": "full"}
    assert estimate_tokens(env) == 300


def test_symbols_search_at_410_shows_results_before_summaries(call: Call) -> None:
    env = call("symbols_search", query="Call", token_budget=410)
    assert [r["symbol_id"] for r in env["data"]["results"]] == [
        "T:Callers", *(f"M:Callers.Call0{i}(Order)" for i in range(6))]
    assert "by_kind" not in env["data"] and "next_actions" not in env  # summaries only with what is left
    assert env["overflow"] == {"shown": 7, "total": 42, "next_offset": 7,
                               "hint": "Showing 7 of 42 (symbols_search). Narrow: kinds=[\"Method\"] (40 of them); or "
                                       "scope: file_path=\"src/Shop/Callers.cs\" (42 there); or page: offset=7"}
    assert estimate_tokens(env) == 398


def test_a_big_enough_budget_keeps_every_summary(call: Call) -> None:
    env = call("symbols_search", query="Call", token_budget=1500)
    assert env["overflow"]["shown"] == 20 and env["data"]["by_kind"][0] == {"kind": "Method", "count": 40}
    assert env["overflow"]["by_file"] == [{"file": "src/Shop/Callers.cs", "count": 42}]
    assert env["overflow"]["hint"] == ("Showing 20 of 42 (symbols_search). Narrow: kinds=[\"Method\"] (40 of them); "
                                       "or scope: file_path=\"src/Shop/Callers.cs\" (42 there); or page: offset=20")


@pytest.mark.parametrize("tool,args", [("refs_find", {"symbol_id": SAVE}), ("symbols_search", {"query": "Call"})])
def test_a_small_budget_shows_a_result_or_says_exactly_why(call: Call, tool: str, args: dict[str, str]) -> None:
    for budget in range(100, 300, 20):
        env = call(tool, **args, token_budget=budget)
        key = "references" if tool == "refs_find" else "results"
        shown = env["data"].get(key) or []
        hint = env["overflow"]["hint"] if "overflow" in env else " ".join(env["warnings"])
        assert shown or re.search(r"raise token_budget=(\d+)", hint), (budget, json.dumps(env)[:600])
        asked = re.search(r"token_budget=(\d+)\.?$", hint)
        assert not asked or int(asked.group(1)) > budget, hint  # never the value given
        assert "offset=0" not in hint


def test_the_minimum_budget_asks_for_more_than_was_given(call: Call) -> None:
    env = call("refs_find", symbol_id=SAVE, token_budget=MIN_BUDGET)
    assert env["data"] == {} and env["truncated"] is True
    assert env["warnings"] == ["Omitted to fit token_budget=100: raise token_budget=200."]


def test_the_largest_budget_never_asks_for_more(call: Call) -> None:
    env = call("code_get_span", file_path="src/Shop/Callers.cs", max_lines=400, token_budget=MAX_BUDGET)
    assert env["truncated"] is False
    assert raise_to(MAX_BUDGET, 20000) is None and raise_to(300, 250) == 400 and raise_to(1000, 4200) == 4500


def test_meta_is_lean_unless_asked(call: Call, monkeypatch: pytest.MonkeyPatch) -> None:
    lean = call("code_get_span", file_path="src/Shop/Orders.cs", start_line=4, end_line=4)
    assert lean["meta"] == {}
    assert len(json.dumps(lean, separators=(",", ":"))) == 239
    monkeypatch.setenv(settings.META, "verbose")
    full = call("code_get_span", file_path="src/Shop/Orders.cs", start_line=4, end_line=4, max_lines=900)
    assert set(full["meta"]) == {"timing_ms", "baseline_commit", "workspace_id", "overlay_revision",
                                 "semantic_level", "limits_applied", "token_budget", "tokens_saved"}
    assert full["meta"]["token_budget"]["used"] == estimate_tokens(full)
    assert full["meta"]["limits_applied"] == {"max_lines": {"requested": 900, "applied": 400}}


def test_the_text_content_renders_the_whole_answer(call: Call) -> None:
    env = call("refs_find", symbol_id=SAVE, token_budget=10000)
    text = render(cast(Envelope, env), 10000).splitlines()
    assert text[0] == env["answer"]
    # by_kind (Call=41, Implementation=1) is left to the rows: the list is whole and its kinds count the same.
    assert text[1] == "symbol: M:IOrderRepository.Save(Order) src/Shop/Orders.cs:6"
    # Said once: the location as line:col under its file (40 rows share Callers.cs), no column that is
    # empty in every row.
    assert text[2] == "references (42; by file): line:col | kind | from_symbol_id | excerpt"
    assert text[3:5] == [
        "  src/Shop/Callers.cs",
        "    7:49 | Call | M:Callers.Call00(Order) | public void Call00(Order order) => _repo.Save(order);"]
    assert text[-3:] == [
        "  src/Shop/Orders.cs",
        "    16:17 | Implementation | M:SqlOrderRepository.Save(Order) | public void Save(Order order) { }",
        "    29:15 | Call | M:OrderService.Place(Order) | _repo.Save(order); _ = order.Id; order.Validate();"]
    assert len(text) == 3 + 2 + 42
    assert not any(line.startswith("meta:") for line in text)  # semantic_level=full goes unsaid in the text
    assert len("\n".join(text)) < len(json.dumps(env, separators=(",", ":")))


def test_the_text_says_once_what_every_row_shares() -> None:
    env = cast(Envelope, {"ok": True, "answer": "2 callers.", "data": {
        "root": {"symbol_id": "M:A.Run", "kind": "Method", "file": "src/A.cs", "line": 3},
        "callers": [{"symbol_id": "M:B.Go", "name": "Go", "kind": "Method", "file": "src/B.cs", "line": 7,
                     "end_line": 9, "note": None},
                    {"symbol_id": "M:C.Do", "name": "Do", "kind": "Method", "file": "src/C.cs", "line": 2,
                     "end_line": 2, "note": None}],
        "callers_total": 2,
        "members": [{"name": "Go", "line": 7, "end_line": 9}, {"name": "Stop", "line": 11, "end_line": 11}],
        "by_kind": [{"kind": "Call", "count": 2}]}, "meta": {"semantic_level": "full"}})
    assert render(env).splitlines() == [
        "2 callers.",
        "root: M:A.Run src/A.cs:3",
        # kind said by each id's M: prefix, note empty in both, name spelled by symbol_id, the location in one cell
        "callers (2): symbol_id | file:line-end_line",
        "  M:B.Go | src/B.cs:7-9",
        "  M:C.Do | src/C.cs:2",
        # callers_total is the header's count
        "members (2): name | line-end_line",
        "  Go | 7-9",
        "  Stop | 11",
        "by_kind: Call=2"]


def test_the_text_leaves_out_what_the_answer_says_and_spreads_lone_records() -> None:
    answer = "Workspace 'w1' at revision 3 on baseline 0123456789ab, depth 2."
    env = cast(Envelope, {"ok": True, "answer": answer, "data": {
        "workspace_id": "w1", "overlay_revision": 3, "baseline_commit": "0123456789ab" + "c" * 28, "depth": 2,
        "cold_start": False, "restored": False, "created": True, "semantic_level": "partial",
        "nodes": [{"symbol_id": "M:A.Get", "file": "A.cs", "line": 4,
                   "edges": [{"kind": "Call", "line": 9, "count": 1}]},
                  {"symbol_id": "M:B.Get", "file": "B.cs", "line": 5,
                   "edges": [{"kind": "Dispatch", "line": 9, "count": 2, "via": "M:A.Get"}]},
                  {"symbol_id": "M:C.Get", "file": "C.cs", "line": 6, "edges": []}],
        "keys": [{"key": "K", "file": "P.cs", "line": 3,
                  "usages": [{"pattern": "indexer", "file": "P.cs", "line": 3}]},
                 {"key": "L", "file": "P.cs", "line": 8,
                  "usages": [{"pattern": "GetValue", "file": "Q.cs", "line": 1}]}]},
        "meta": {"semantic_level": "partial", "workspace_id": "w1"}})
    assert render(env).splitlines() == [
        answer,
        # the workspace, revision, baseline and depth are in the answer; cold_start: false and created: true are
        # the usual case, and restored: false is news
        "restored: false",
        "semantic_level: partial",
        # one edge per node reads as columns; an edge's count=1 goes unsaid
        "nodes (3): symbol_id | file:line | edges.kind | edges.line | edges.count | edges.via",
        "  M:A.Get | A.cs:4 | Call | 9",
        "  M:B.Get | B.cs:5 | Dispatch | 9 | 2 | M:A.Get",
        "  M:C.Get | C.cs:6",
        # a usage somewhere else than its row keeps its place as one cell
        "keys (2): key | file:line | usages.pattern | usages.at",
        "  K | P.cs:3 | indexer | P.cs:3",
        "  L | P.cs:8 | GetValue | Q.cs:1"]  # meta's semantic_level: data says it


def test_counts_the_rows_already_say_are_left_to_the_rows() -> None:
    rows = [{"severity": "error", "code": "CS0029", "line": 11}, {"severity": "warning", "code": "CS0168", "line": 4}]
    whole = cast(Envelope, {"ok": True, "answer": "1 error, 1 warning.", "data": {
        "by_severity": {"error": 1, "warning": 1}, "by_code": [{"code": "CS0029", "count": 1},
                                                               {"code": "CS0168", "count": 1}],
        "edges": [{"symbol_id": "M:A.Run", "edges": [{"kind": "Call", "count": 1, "line": 3},
                                                     {"kind": "Call", "count": 2, "line": 5}]}],
        "diagnostics": rows}, "meta": {}})
    assert render(whole).splitlines() == [
        "1 error, 1 warning.",
        "edges (1): symbol_id | edges",
        "  M:A.Run | {kind=Call, line=3}, {kind=Call, count=2, line=5}",  # a count is said above 1 only
        "diagnostics (2): severity | code | line",
        "  error | CS0029 | 11",
        "  warning | CS0168 | 4"]
    # Over a cut list the counts are news: kept.
    cut = cast(Envelope, {**whole, "truncated": True, "data": {**whole["data"], "diagnostics": rows[:1]}})
    assert "by_severity: {error=1, warning=1}" in render(cut).splitlines()


def test_a_name_its_id_column_spells_is_left_to_the_id() -> None:
    env = cast(Envelope, {"ok": True, "answer": "2 DI registrations.", "data": {"registrations": [
        {"service": "IOrderService", "service_id": "T:IOrderService", "lifetime": "Scoped"},
        {"service": "IClock", "service_id": None, "lifetime": "Singleton"}]}, "meta": {}})
    # The second row's service has no id: the column stays.
    assert render(env).splitlines()[1] == "registrations (2): service | service_id | lifetime"
    env["data"]["registrations"][1]["service_id"] = "T:IClock"
    assert render(env).splitlines()[1:] == ["registrations (2): service_id | lifetime",
                                            "  T:IOrderService | Scoped", "  T:IClock | Singleton"]


def test_rows_of_one_file_go_under_it_when_that_is_shorter() -> None:
    """Consecutive rows of one file say it once (row order kept, a file seen again gets a new line);
    rows of different files stay flat, as `file:line`. Empty cells at a row's end and empty lists are
    left out."""
    tests = [{"test": "M:T.A", "file": "tests/Unit/OrderTests.cs", "line": 9, "via": []},
             {"test": "M:T.B", "file": "tests/Unit/OrderTests.cs", "line": 20, "via": ["M:H.Build"]},
             {"test": "M:U.C", "file": "tests/Api/ApiTests.cs", "line": 4, "via": []},
             {"test": "M:T.D", "file": "tests/Unit/OrderTests.cs", "line": 31, "via": []}]
    env = cast(Envelope, {"ok": True, "answer": "4 tests.", "data": {"tests": tests}, "meta": {}})
    assert render(env).splitlines() == [
        "4 tests.",
        "tests (4; by file): test | line | via",
        "  tests/Unit/OrderTests.cs",
        "    M:T.A | 9",
        "    M:T.B | 20 | M:H.Build",
        "  tests/Api/ApiTests.cs",
        "    M:U.C | 4",
        "  tests/Unit/OrderTests.cs",
        "    M:T.D | 31"]
    spread = cast(Envelope, {**env, "data": {"tests": [tests[0], tests[2]]}})
    assert render(spread).splitlines()[1:] == ["tests (2): test | file:line", "  M:T.A | tests/Unit/OrderTests.cs:9",
                                               "  M:U.C | tests/Api/ApiTests.cs:4"]


def test_a_lone_record_of_many_fields_stays_in_its_cell() -> None:
    """A trace node's one fact has many optional fields: spread, most rows would be a run of empty cells."""
    fact = {"kind": "DbTable", "key": "orders", "line": 9, "confidence": "high", "entity": "T:Order", "source": "DbSet"}
    env = cast(Envelope, {"ok": True, "answer": "2 nodes.", "data": {"nodes": [
        {"symbol_id": "P:Db.Orders", "facts": [fact]}, {"symbol_id": "M:Db.Save", "facts": []}]}})
    assert render(env).splitlines() == [
        "2 nodes.",
        "nodes (2): symbol_id | facts",
        "  P:Db.Orders | {kind=DbTable, key=orders, line=9, confidence=high, entity=T:Order, source=DbSet}",
        "  M:Db.Save"]


def test_cutting_long_strings_never_cuts_the_answer() -> None:
    """A fixed list too long for the budget gets its strings cut; the answer it explains stays whole."""
    from roslynmap.mcp.envelope import _cut_strings

    answer = "47 projects (2 app, 23 library, 20 test, 2 web), 3 entry points, 51 endpoints, 44 tables."
    cut = _cut_strings({"answer": answer, "data": {"path": "src/" + "x" * 60}}, 20)
    assert cut == {"answer": answer, "data": {"path": "src/" + "x" * 16 + "…"}}


def test_the_text_merges_places_in_one_file_and_leaves_out_a_place_its_row_gives() -> None:
    env = cast(Envelope, {"ok": True, "answer": "2 tables.", "data": {
        "symbol_id": "M:A.Run(Int32)", "kind": "Method", "baseline_available": True,
        "tables": [{"table": "orders", "file": "src/Db.cs", "line": 14,
                    "sources": [{"via": "ToTable", "file": "src/Db.cs", "line": 14},
                                {"via": "Sql", "file": "src/Store.cs", "line": 20},
                                {"via": "Sql", "file": "src/Store.cs", "line": 25},
                                {"via": "DbSet", "file": "src/Store.cs", "line": 29},
                                {"via": "Sql", "file": "src/Store.cs", "line": 36, "col": 5}]},
                   {"table": "audit", "file": "src/Store.cs", "line": 2,
                    "sources": [{"via": "Sql", "file": "src/Store.cs", "line": 2},
                                {"via": "Sql", "file": "src/Store.cs", "line": 24}]}]}})
    assert render(env).splitlines() == [
        "2 tables.",
        # kind: Method is what the id's M: says; baseline_available: true is the usual case
        "symbol_id: M:A.Run(Int32)",
        # a run of places with one word in one file is one cell (not across a word, nor with a column); each
        # row's file:line is its first source's, so the column goes
        "tables (2): table | sources",
        "  orders | ToTable src/Db.cs:14, Sql src/Store.cs:20,25, DbSet src/Store.cs:29, Sql src/Store.cs:36:5",
        "  audit | Sql src/Store.cs:2,24"]


def test_a_place_only_some_rows_give_elsewhere_keeps_its_column() -> None:
    env = cast(Envelope, {"ok": True, "answer": "2 tables.", "data": {
        "kind": "Class", "symbol_id": "T:A", "created": False, "overlay_revision": 0,
        "tables": [{"table": "orders", "file": "src/Db.cs", "line": 14,
                    "sources": [{"via": "ToTable", "file": "src/Db.cs", "line": 14},
                                {"via": "Sql", "file": "src/Db.cs", "line": 40}]},
                   {"table": "audit", "file": "src/Db.cs", "line": 3,
                    "sources": [{"via": "Sql", "file": "src/Db.cs", "line": 30},
                                {"via": "Sql", "file": "src/Db.cs", "line": 3}]}]}})
    assert render(env).splitlines() == [
        "2 tables.",
        "kind: Class",  # T: does not say which kind of type
        "symbol_id: T:A",
        "created: false",
        "overlay_revision: 0",  # a workspace that existed, never refreshed: news
        # src/Db.cs:3 is not src/Db.cs:30
        "tables (2): table | file:line | sources",
        "  orders | src/Db.cs:14 | ToTable src/Db.cs:14, Sql src/Db.cs:40",
        "  audit | src/Db.cs:3 | Sql src/Db.cs:30,3"]


def test_a_kind_the_id_or_signature_says_and_a_signature_the_source_shows_go_unsaid() -> None:
    """An outline's kind is in each row's id prefix (`P:`), constructor id (`#ctor`) or signature keyword
    (`class`, `const`); a card's signature and one-line doc are in the source it shows. A kind neither says
    keeps its column (`Class` beside a `T:` id with no signature)."""
    outline = cast(Envelope, {"ok": True, "answer": "A.cs declares 1 type.", "data": {"declarations": [
        {"kind": "Class", "symbol_id": "T:A", "signature": "public sealed class A : IA", "line": 1},
        {"kind": "Constant", "symbol_id": "F:A.N", "signature": "private const int N", "line": 2},
        {"kind": "Constructor", "symbol_id": "M:A.#ctor(Int32)", "signature": "public A(int n)", "line": 3},
        {"kind": "Property", "symbol_id": "P:A.Count", "signature": "public int Count { get; }", "line": 4}]}})
    assert render(outline).splitlines()[1] == "declarations (4): symbol_id | signature | line"
    types = cast(Envelope, {"ok": True, "answer": "2 types.", "data": {"types": [
        {"kind": "Class", "symbol_id": "T:A", "line": 1}, {"kind": "Method", "symbol_id": "M:A.Go", "line": 2}]}})
    assert render(types).splitlines()[1] == "types (2): kind | symbol_id | line"
    card = cast(Envelope, {"ok": True, "answer": "Method A.Go.", "data": {
        "card": {"symbol_id": "M:A.Go(Int32)", "signature": "public void Go(int n)", "doc": "Goes n steps.",
                 "attributes": ["Obsolete"]},
        "source": [{"line": 4, "text": "    /// <summary>Goes n steps.</summary>"},
                   {"line": 5, "text": "    public void Go(int n) { }"}]}})
    assert render(card).splitlines()[1:4] == ["card:", "  symbol_id: M:A.Go(Int32)", "  attributes: [Obsolete]"]


def test_a_refresh_names_the_files_it_extracted_only_when_its_other_lists_do_not() -> None:
    """Re-extracted = the changed files and those rebound: said by those two lists. A refresh that re-extracted
    fewer (the others were extracted by an earlier refresh) names them."""
    data = {"extracted": ["src/A.cs", "src/B.cs"], "rebound": ["src/B.cs"],
            "changed_files": [{"path": "src/A.cs", "state": "changed"}, {"path": "src/Old.cs", "state": "deleted"}]}
    text = render(cast(Envelope, {"ok": True, "answer": "Workspace 'w' at revision 2.", "data": data}))
    assert "extracted:" not in text and "rebound: [src/B.cs]" in text
    fewer = {**data, "extracted": ["src/B.cs"]}
    text = render(cast(Envelope, {"ok": True, "answer": "Workspace 'w' at revision 2.", "data": fewer}))
    assert "extracted: [src/B.cs]" in text

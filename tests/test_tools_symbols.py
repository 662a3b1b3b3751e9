"""symbols_search, symbols_get_card, code_get_span, symbols_get_definition_span over MCP stdio."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.mcp_client import McpServerProcess

PLACE = "M:Shop.Services.OrderService.Place(Shop.Domain.Order,System.Threading.CancellationToken)"


# Exact name first, then types by bm25; StatisticsCollector matches through its doc summary.
EXPECTED_REPOSITORY_TYPES = [
    "T:Shop.Domain.Repository`1", "T:Shop.Domain.IOrderRepository", "T:Shop.Infrastructure.CustomerRepository",
    "T:Shop.Domain.IRepository`1", "T:Shop.Infrastructure.SqlOrderRepository",
    "T:Shop.Infrastructure.InMemoryOrderRepository", "T:Shop.Infrastructure.StatisticsCollector",
]


def ids(env: dict[str, Any]) -> list[str]:
    return [r["symbol_id"] for r in env["data"]["results"]]


def test_tools_are_listed_with_annotations(server: McpServerProcess) -> None:
    tools = {t.name: t for t in server.list_tools()}
    assert {"repo_status", "index_ensure_baseline", "symbols_search", "symbols_get_card", "code_get_span",
            "symbols_get_definition_span", "refs_find", "graph_callers", "graph_callees",
            "types_hierarchy"} <= set(tools)
    for tool in tools.values():
        assert len(tool.description.encode()) < 2048
        assert tool.description.startswith("Use ")
        # only hints that differ from MCP's defaults are listed (docs/tools.md, "Cost"): openWorldHint is left out
        assert tool.annotations.open_world_hint is None
    assert tools["symbols_search"].annotations.read_only_hint is True
    assert tools["index_ensure_baseline"].annotations.read_only_hint is None  # default: false
    assert tools["index_ensure_baseline"].annotations.destructive_hint is False


def test_search_finds_camelcase_parts(server: McpServerProcess) -> None:
    env = server.call("symbols_search", {"query": "Repository", "kinds": ["Class", "Interface"]})
    assert env["ok"] and env["truncated"] is False
    assert ids(env) == EXPECTED_REPOSITORY_TYPES


def test_search_prefix_of_part(server: McpServerProcess) -> None:
    env = server.call("symbols_search", {"query": "OrderRepo", "kinds": "Class"})
    # bm25 ties break on the shorter name
    assert ids(env) == ["T:Shop.Infrastructure.SqlOrderRepository", "T:Shop.Infrastructure.InMemoryOrderRepository"]


def test_search_exact_name_first_with_location(server: McpServerProcess) -> None:
    env = server.call("symbols_search", {"query": "SqlOrderRepository"})
    first = env["data"]["results"][0]
    assert first == {
        "symbol_id": "T:Shop.Infrastructure.SqlOrderRepository", "name": "SqlOrderRepository", "kind": "Class",
        "signature": "public sealed class SqlOrderRepository : IOrderRepository",
        "file": "src/Shop.Infrastructure/SqlOrderRepository.cs", "line": 6, "project": "Shop.Infrastructure",
    }


def test_search_by_doc_summary(server: McpServerProcess) -> None:
    env = server.call("symbols_search", {"query": "Saves a new order"})
    assert PLACE in ids(env)


@pytest.mark.parametrize("query", ["*", "\"", "OR", "AND NOT", "(", "a\"b", "--", "'", "", "   ", "NEAR(x y)",
                                   "名前", "x:y", "^"])
def test_search_never_fails_on_user_text(server: McpServerProcess, query: str) -> None:
    env = server.call("symbols_search", {"query": query})
    assert env["ok"] is True, env
    assert isinstance(env["data"]["results"], list)


def test_browse_by_kind_with_exact_total(server: McpServerProcess) -> None:
    env = server.call("symbols_search", {"kinds": ["Interface"]})
    assert ids(env) == ["T:Shop.Domain.IOrderRepository", "T:Shop.Domain.IRepository`1"]
    env = server.call("symbols_search", {"kinds": "Method", "limit": 5})
    assert env["truncated"] is True and env["overflow"]["total"] == 49 and env["overflow"]["shown"] == 5
    assert "offset=5" in env["overflow"]["hint"]


def test_filters_apply_before_limit(server: McpServerProcess) -> None:
    env = server.call("symbols_search", {"kinds": ["Property"], "namespace": "Shop.Infrastructure", "limit": 2})
    assert env["overflow"]["total"] == 8
    env = server.call("symbols_search", {"kinds": ["Method"], "file_path": "src/Shop.Services/", "limit": 100})
    assert ids(env) == [
        "M:Shop.Services.PricingService.AddRule(Shop.Domain.PriceRule)",
        "M:Shop.Services.PricingService.Best``1(System.Collections.Generic.IEnumerable{``0},System.Func{``0,System.Decimal})",
        "M:Shop.Services.OrderService.Cancel(System.Guid)",
        "M:Shop.Services.OrderService.Dispose",
        "M:Shop.Services.OrderService.Pay(System.Guid)",
        PLACE,
        "M:Shop.Services.PricingService.Price(Shop.Domain.Order,Shop.Domain.Discount)",
    ]


def test_unknown_kind_is_invalid_argument(server: McpServerProcess) -> None:
    env = server.call("symbols_search", {"kinds": ["Klass"]})
    assert env["ok"] is False and env["error"]["code"] == "INVALID_ARGUMENT"
    assert "Class" in env["error"]["hint"]


def test_numbers_as_strings_and_bad_types(server: McpServerProcess) -> None:
    env = server.call("symbols_search", {"query": "Order", "limit": "3", "offset": "1"})
    assert env["ok"] and env["overflow"]["shown"] == 3
    bad = server.call("symbols_search", {"limit": "many"})
    assert bad["error"]["code"] == "INVALID_ARGUMENT" and "limit" in bad["error"]["message"]
    extra = server.call("symbols_search", {"qurey": "x"})
    assert extra["error"]["code"] == "INVALID_ARGUMENT" and "query" in extra["error"]["hint"]


def test_card(server: McpServerProcess) -> None:
    env = server.call("symbols_get_card", {"symbol_id": PLACE})
    data = env["data"]
    assert data["stable_id"].startswith("sym_") and len(data["stable_id"]) == 20
    assert {k: data[k] for k in ("fqn", "kind", "signature", "doc", "namespace", "containing_type", "visibility",
                                 "project", "location")} == {
        "fqn": "Shop.Services.OrderService.Place", "kind": "Method",
        "signature": "public Order Place(Order order, CancellationToken cancellationToken)",
        "doc": "Saves a new order and returns it.", "namespace": "Shop.Services",
        "containing_type": "T:Shop.Services.OrderService", "visibility": "public", "project": "Shop.Services",
        "location": {"file": "src/Shop.Services/OrderService.cs", "line": 22, "col": 18, "end_line": 27},
    }
    assert [c["symbol_id"] for c in data["top_callees"]] == [
        "M:Shop.Domain.IOrderRepository.Save(Shop.Domain.Order)",
        "M:System.Threading.CancellationToken.ThrowIfCancellationRequested"]
    by_stable = server.call("symbols_get_card", {"symbol_id": data["stable_id"]})
    assert by_stable["data"]["symbol_id"] == PLACE


def test_partial_class_card_lists_other_part(server: McpServerProcess) -> None:
    data = server.call("symbols_get_card", {"symbol_id": "T:Shop.Domain.Customer"})["data"]
    files = {data["location"]["file"]} | {p["file"] for p in data["other_parts"]}
    assert files == {"src/Shop.Domain/Customer.cs", "src/Shop.Domain/Customer.Address.cs"}


def test_unknown_symbol_offers_candidates(server: McpServerProcess) -> None:
    env = server.call("symbols_get_card", {"symbol_id": "M:Shop.Services.OrderService.Plase"})
    assert env["ok"] is False and env["error"]["code"] == "NOT_FOUND"
    env = server.call("symbols_get_card", {"symbol_id": "T:Shop.Services.OrderServic"})
    assert env["error"]["candidates"][0]["symbol_id"] == "T:Shop.Services.OrderService"
    assert len(env["error"]["candidates"]) <= 3
    plain = server.call("symbols_get_card", {"symbol_id": "OrderService"})  # the class, not also its constructor
    assert plain["ok"] and plain["data"]["symbol_id"] == "T:Shop.Services.OrderService"
    malformed = server.call("symbols_get_card", {"symbol_id": "Order Service"})
    assert malformed["error"]["code"] == "INVALID_ARGUMENT"
    assert malformed["error"]["candidates"][0]["symbol_id"] == "T:Shop.Services.OrderService"


def test_code_span(server: McpServerProcess) -> None:
    env = server.call("code_get_span", {"file_path": "src/Shop.Domain/Order.cs", "start_line": 7, "end_line": 8})
    assert env["data"]["lines"][0]["line"] == 7
    assert env["data"]["lines"][0]["text"].startswith("public record Order(")
    assert [item["line"] for item in env["data"]["lines"]] == [7, 8]
    assert env["data"]["file_lines"] == len((server_repo(server) / "src/Shop.Domain/Order.cs").read_text()
                                            .splitlines())


def server_repo(server: McpServerProcess) -> Path:
    return Path(server.call("repo_status", {})["data"]["root"])


@pytest.mark.parametrize("path", ["../outside.cs", "/etc/passwd", "src/../../x.cs"])
def test_paths_outside_repo_are_refused(server: McpServerProcess, path: str) -> None:
    env = server.call("code_get_span", {"file_path": path})
    assert env["ok"] is False and env["error"]["code"] == "PATH_OUTSIDE_REPO"


def test_missing_file_and_bad_range(server: McpServerProcess) -> None:
    assert server.call("code_get_span", {"file_path": "src/Nope.cs"})["error"]["code"] == "NOT_FOUND"
    env = server.call("code_get_span", {"file_path": "src/Shop.Domain/Order.cs", "start_line": 9999})
    assert env["error"]["code"] == "INVALID_ARGUMENT"


def test_definition_span_includes_doc_comment(server: McpServerProcess) -> None:
    env = server.call("symbols_get_definition_span", {"symbol_id": PLACE})
    lines = env["data"]["lines"]
    assert lines[0]["text"].strip() == "/// <summary>Saves a new order and returns it.</summary>"
    assert lines[-1]["line"] == 27 and lines[-1]["text"].strip() == "}"


def test_long_span_is_cut_with_next_call(server: McpServerProcess) -> None:
    env = server.call("code_get_span", {"file_path": "src/Shop.App/Program.cs", "max_lines": "5"})
    assert [i["line"] for i in env["data"]["lines"]] == [1, 2, 3, 4, 5]
    assert env["next_actions"][0]["args"] == {"file_path": "src/Shop.App/Program.cs", "start_line": 6}


def test_repo_status(server: McpServerProcess) -> None:
    data = server.call("repo_status", {})["data"]
    assert data["clean"] is True and data["branch"] == "main" and data["baseline_for_head"] is True
    assert len(data["head_commit"]) == 40


def test_unknown_tool_did_you_mean(server: McpServerProcess) -> None:
    env = server.call("symbols.search", {})
    assert env["ok"] is False and env["error"]["code"] == "INVALID_ARGUMENT"
    assert "symbols_search" in env["error"]["hint"]


def test_no_baseline_is_index_not_available(tmp_path: Path, home: Path) -> None:
    from tests.repos import TESTDATA, make_repo

    repo = make_repo(TESTDATA / "NotRestored", tmp_path / "fresh", restore=False)
    server = McpServerProcess(repo, {"ROSLYNMAP_HOME": str(tmp_path / "emptyhome")})
    try:
        env = server.call("symbols_search", {"query": "Greeter"})
        assert env["error"]["code"] == "INDEX_NOT_AVAILABLE" and env["error"]["retryable"] is True
        assert "index_ensure_baseline" in env["error"]["hint"]
    finally:
        server.close()


def test_card_lists_thrown_exceptions(server: McpServerProcess) -> None:
    add = server.call("symbols_get_card", {"symbol_id": "M:Shop.Domain.Money.op_Addition(Shop.Domain.Money,"
                                                        "Shop.Domain.Money)"})["data"]
    assert add["thrown_exceptions"] == ["T:System.InvalidOperationException"]
    # An operator by the plain name its metadata gives it (eShop's `Entity.op_Inequality` was NOT_FOUND).
    by_name = server.call("symbols_get_card", {"symbol_id": "Money.op_Addition"})
    assert by_name["data"]["symbol_id"] == "M:Shop.Domain.Money.op_Addition(Shop.Domain.Money,Shop.Domain.Money)"
    explicit = server.call("symbols_get_card", {"symbol_id": "Money.op_Explicit"})  # fqn `...explicit operator decimal`
    assert explicit["data"]["symbol_id"] == "M:Shop.Domain.Money.op_Explicit(Shop.Domain.Money)~System.Decimal"
    best = server.call("symbols_get_card", {"symbol_id": "M:Shop.Services.PricingService.Best``1("
                                                         "System.Collections.Generic.IEnumerable{``0},"
                                                         "System.Func{``0,System.Decimal})"})["data"]
    assert best["thrown_exceptions"] == ["T:System.ArgumentException"]
    # cancellationToken.ThrowIfCancellationRequested(): a framework throw helper, by its documented exception.
    place = server.call("symbols_get_card", {"symbol_id": PLACE})["data"]
    assert place["thrown_exceptions"] == ["T:System.OperationCanceledException"]


def test_search_type_dot_member_finds_the_member_first(server: McpServerProcess) -> None:
    # Hangfire: `BackgroundJob.Enqueue` found tests and helpers but none of the 8 overloads (the type's name
    # is in no searched column of its members); a dotted query names a member by its type, namespace optional.
    for query in ("OrderService.Place", "OrderService.Place()"):
        env = server.call("symbols_search", {"query": query})
        assert ids(env) == [PLACE, "T:Shop.Services.OrderService"], query  # then the FTS hits, as before
    assert ids(server.call("symbols_search", {"query": "Shop.Services.OrderService.Place"})) == [PLACE]
    env = server.call("symbols_search", {"query": "Repository<T>.Add"})
    assert ids(env)[0] == "M:Shop.Domain.Repository`1.Add(`0)"  # not IRepository<T>.Add
    assert server.call("symbols_search", {"query": "Shop.Domain.Order"})["data"]["results"][0]["symbol_id"] == \
        "T:Shop.Domain.Order"

"""refs_find, graph_callers, graph_callees, types_hierarchy over MCP stdio, with exact expectations."""

from __future__ import annotations

from typing import Any

from tests.mcp_client import McpServerProcess

ISAVE = "M:Shop.Domain.IOrderRepository.Save(Shop.Domain.Order)"
SQL_SAVE = "M:Shop.Infrastructure.SqlOrderRepository.Save(Shop.Domain.Order)"
PLACE = "M:Shop.Services.OrderService.Place(Shop.Domain.Order,System.Threading.CancellationToken)"
PAY = "M:Shop.Services.OrderService.Pay(System.Guid)"
MAIN = "M:Program.<Main>$(System.String[])"


def refs(env: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(r["file"], r["line"], r["kind"]) for r in env["data"]["references"]]


def test_refs_of_interface_method(server: McpServerProcess) -> None:
    env = server.call("refs_find", {"symbol_id": ISAVE})
    assert refs(env) == [
        ("src/Shop.Infrastructure/InMemoryOrderRepository.cs", 23, "Implementation"),
        ("src/Shop.Infrastructure/SqlOrderRepository.cs", 30, "Implementation"),
        ("src/Shop.Services/OrderService.cs", 25, "Call"),
        ("src/Shop.Services/OrderService.cs", 39, "Call"),
    ]
    first_call = env["data"]["references"][2]
    assert first_call["from_symbol_id"] == PLACE and first_call["excerpt"] == "_repository.Save(order);"
    assert first_call["col"] == 21


def test_refs_of_implementation_must_follow_interface(server: McpServerProcess) -> None:
    env = server.call("refs_find", {"symbol_id": SQL_SAVE})
    assert refs(env) == [("src/Shop.App/Program.cs", 22, "Call")]
    assert ISAVE in env["must_follow"]


def test_writes_include_increment_compound_and_ref(server: McpServerProcess) -> None:
    count = server.call("refs_find", {"symbol_id": "P:Shop.Infrastructure.OrderStatistics.Count", "kind": "Write"})
    assert refs(count) == [("src/Shop.Infrastructure/StatisticsCollector.cs", 23, "Write")]
    total = server.call("refs_find", {"symbol_id": "P:Shop.Infrastructure.OrderStatistics.Total", "kind": "Write"})
    assert refs(total) == [("src/Shop.Infrastructure/StatisticsCollector.cs", 24, "Write")]
    writes = server.call("refs_find", {"symbol_id": "F:Shop.Infrastructure.SqlOrderRepository._writes"})
    assert refs(writes) == [("src/Shop.Infrastructure/SqlOrderRepository.cs", 19, "Read"),
                            ("src/Shop.Infrastructure/SqlOrderRepository.cs", 42, "Write")]
    order_count = server.call("refs_find", {"symbol_id": "P:Shop.Domain.Customer.OrderCount"})
    assert refs(order_count) == [("src/Shop.App/Program.cs", 28, "Write")]


def test_event_subscription_is_write(server: McpServerProcess) -> None:
    env = server.call("refs_find", {"symbol_id": "E:Shop.Domain.IOrderRepository.Saved", "kind": "Write"})
    assert refs(env) == [("src/Shop.Infrastructure/StatisticsCollector.cs", 14, "Write"),
                         ("src/Shop.Infrastructure/StatisticsCollector.cs", 19, "Write")]


def test_refs_filters_totals_and_overflow_hint(server: McpServerProcess) -> None:
    env = server.call("refs_find", {"symbol_id": "T:Shop.Domain.Order", "limit": 3})
    assert env["truncated"] is True
    assert env["data"]["by_kind"] == [{"kind": "TypeRef", "count": 24}, {"kind": "Instantiate", "count": 1}]
    overflow = env["overflow"]
    assert (overflow["shown"], overflow["total"], overflow["next_offset"]) == (3, 25, 3)
    assert overflow["by_file"][:2] == [{"file": "src/Shop.Infrastructure/SqlOrderRepository.cs", "count": 5},
                                       {"file": "src/Shop.Domain/IOrderRepository.cs", "count": 4}]
    assert sum(f["count"] for f in overflow["by_file"]) == 25
    assert overflow["hint"] == (
        'Showing 3 of 25 (refs_find). Narrow: kind="TypeRef" (24 of them), kind="Instantiate" (1 of them); '
        'or scope: file_path="src/Shop.Infrastructure/SqlOrderRepository.cs" (5 there); or page: offset=3')
    only = server.call("refs_find", {"symbol_id": "T:Shop.Domain.Order", "kind": "Instantiate"})
    assert refs(only) == [("src/Shop.Domain/OrderFactory.cs", 16, "Instantiate")]
    scoped = server.call("refs_find", {"symbol_id": "T:Shop.Domain.Order", "file_path": "src/Shop.Services/"})
    assert [(f, k) for f, _, k in refs(scoped)] == [("src/Shop.Services/OrderService.cs", "TypeRef")] * 3 + [
        ("src/Shop.Services/PricingService.cs", "TypeRef")]
    page = server.call("refs_find", {"symbol_id": "T:Shop.Domain.Order", "limit": 3, "offset": 3})
    assert refs(page) != refs(env) and page["overflow"]["next_offset"] == 6


def test_unknown_ref_kind_lists_valid(server: McpServerProcess) -> None:
    env = server.call("refs_find", {"symbol_id": ISAVE, "kind": "Invoke"})
    assert env["error"]["code"] == "INVALID_ARGUMENT"
    assert "Call, Read, Write, Instantiate, Override, Implementation, TypeRef" in env["error"]["hint"]


def test_callers_follow_interface_dispatch(server: McpServerProcess) -> None:
    env = server.call("graph_callers", {"symbol_id": SQL_SAVE, "depth": 2})
    nodes = {n["symbol_id"]: n for n in env["data"]["nodes"]}
    assert set(nodes) == {MAIN, PLACE, PAY}
    assert nodes[PLACE]["depth"] == 1
    assert nodes[PLACE]["edges"][0]["via"] == ISAVE
    assert nodes[MAIN]["depth"] == 1  # calls SqlOrderRepository.Save directly at Program.cs:22


def test_callers_depth_is_clamped(server: McpServerProcess) -> None:
    env = server.call("graph_callers", {"symbol_id": PLACE, "depth": 99})
    assert env["meta"]["limits_applied"]["max_depth"] == {"requested": 99, "applied": 6}
    assert [n["symbol_id"] for n in env["data"]["nodes"]] == [MAIN]


def test_constructor_callers(server: McpServerProcess) -> None:
    ctor = "M:Shop.Services.OrderService.#ctor(Shop.Domain.IOrderRepository)"
    env = server.call("graph_callers", {"symbol_id": ctor})
    assert [(n["symbol_id"], n["edges"][0]["kind"]) for n in env["data"]["nodes"]] == [(MAIN, "Instantiate")]


def test_callees_list_implementations(server: McpServerProcess) -> None:
    env = server.call("graph_callees", {"symbol_id": PLACE})
    nodes = [n["symbol_id"] for n in env["data"]["nodes"]]
    assert ISAVE in nodes
    assert "M:Shop.Infrastructure.SqlOrderRepository.Save(Shop.Domain.Order)" in nodes
    assert "M:Shop.Infrastructure.InMemoryOrderRepository.Save(Shop.Domain.Order)" in nodes
    sql = next(n for n in env["data"]["nodes"] if n["symbol_id"] == SQL_SAVE)
    assert sql["edges"][0]["kind"] == "Dispatch" and sql["edges"][0]["via"] == ISAVE
    assert "outside the solution" in " ".join(env.get("warnings", []))


def test_hierarchy_of_abstract_class(server: McpServerProcess) -> None:
    env = server.call("types_hierarchy", {"symbol_id": "T:Shop.Domain.Discount"})
    assert env["data"]["bases"] == []
    assert [(d["symbol_id"], d["relation"]) for d in env["data"]["descendants"]] == [
        ("T:Shop.Domain.FixedDiscount", "derives"), ("T:Shop.Domain.PercentageDiscount", "derives")]


def test_hierarchy_of_interface_and_generic_chain(server: McpServerProcess) -> None:
    env = server.call("types_hierarchy", {"symbol_id": "T:Shop.Domain.IOrderRepository"})
    assert [(d["symbol_id"], d["relation"]) for d in env["data"]["descendants"]] == [
        ("T:Shop.Infrastructure.InMemoryOrderRepository", "implements"),
        ("T:Shop.Infrastructure.SqlOrderRepository", "implements")]
    repo = server.call("types_hierarchy", {"symbol_id": "T:Shop.Infrastructure.CustomerRepository",
                                           "transitive": "true"})
    assert [b["symbol_id"] for b in repo["data"]["bases"]] == ["T:Shop.Domain.Repository`1"]
    assert [i["symbol_id"] for i in repo["data"]["interfaces"]] == ["T:Shop.Domain.IRepository`1"]
    generic = server.call("types_hierarchy", {"symbol_id": "T:Shop.Domain.IRepository`1", "transitive": True})
    assert [(d["symbol_id"], d["depth"]) for d in generic["data"]["descendants"]] == [
        ("T:Shop.Domain.Repository`1", 1), ("T:Shop.Infrastructure.CustomerRepository", 2)]


def test_hierarchy_of_member_is_invalid(server: McpServerProcess) -> None:
    env = server.call("types_hierarchy", {"symbol_id": ISAVE})
    assert env["error"]["code"] == "INVALID_ARGUMENT" and "T:Shop.Domain.IOrderRepository" in env["error"]["hint"]


def test_callers_per_level_limit_counts_what_it_leaves_out(server: McpServerProcess) -> None:
    env = server.call("graph_callers", {"symbol_id": SQL_SAVE, "limit_per_level": 1})
    assert [n["symbol_id"] for n in env["data"]["nodes"]] == [MAIN]  # ties on call count break by id
    assert "limit_per_level=1 left out nodes at levels {1: 2}" in env["warnings"][0]

"""Unbound calls in graph and refs answers, names in place of ids, over MCP stdio (testdata/Unbound).

testdata/Unbound calls Basket.AddItem(int, int) three times bound (BasketService) and twice on
receivers whose types come from a missing reference (LegacyImporter: `_cart`, `basket`), and calls
GetByIdAsync twice unbound: on a field declared IRepository<Basket>, and on a local of unknown type.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

ADD = "M:Unbound.Basket.AddItem(System.Int32,System.Int32)"
ADD_SKU = "M:Unbound.Basket.AddItem(System.String)"
TO_BASKET = "M:Unbound.BasketService.AddToBasket(System.Int32)"
RESTOCK = "M:Unbound.BasketService.Restock"
RUN = "M:Unbound.Checkout.Run(Unbound.BasketService)"
IMPORT = "M:Unbound.LegacyImporter.Import"
IMPORT_ALL = "M:Unbound.LegacyImporter.ImportAll(CartFactory)"
LOAD = "M:Unbound.BasketService.Load(System.Int32)"
UNBOUND_ADDS = [
    {"name": "AddItem", "receiver": "_cart", "kind": "Call", "file": "LegacyImporter.cs", "line": 10, "col": 15,
     "from_symbol_id": IMPORT, "depth": 1},
    {"name": "AddItem", "receiver": "basket", "kind": "Call", "file": "LegacyImporter.cs", "line": 17, "col": 16,
     "from_symbol_id": IMPORT_ALL, "depth": 1},
]
REPO_CALL = {"name": "GetByIdAsync", "receiver": "_repository", "kind": "Call", "file": "BasketService.cs", "line": 20,
             "col": 47, "from_symbol_id": LOAD, "unresolved": True}
LOCAL_CALL = {"name": "GetByIdAsync", "receiver": "repo", "kind": "Call", "file": "LegacyImporter.cs", "line": 19,
              "col": 14, "from_symbol_id": IMPORT_ALL, "unresolved": True}


@pytest.fixture(scope="module")
def unbound(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Unbound", tmp_path_factory, home, exit_code=2)


def node_ids(env: dict[str, Any]) -> list[tuple[str, int]]:
    return [(n["symbol_id"], n["depth"]) for n in env["data"]["nodes"]]


def test_callers_count_and_name_unbound_calls(unbound: McpServerProcess) -> None:
    env = unbound.call("graph_callers", {"symbol_id": ADD, "depth": 2})
    assert env["answer"] == ("3 bound callers of Unbound.Basket.AddItem within depth 2 + 2 unbound calls named "
                             "AddItem that could be it (in 2 more members).")
    assert node_ids(env) == [(TO_BASKET, 1), (RESTOCK, 1), (RUN, 2)]
    calls = env["data"]["unbound_calls"]
    assert calls["items"] == UNBOUND_ADDS
    assert (calls["total"], calls["callers"], calls["by_depth"], calls["by_name"]) == (2, 2, {"1": 2}, {"AddItem": 2})
    assert "could not bind" in env["warnings"][-1]


def test_callers_of_a_never_bound_overload_still_count_unbound(unbound: McpServerProcess) -> None:
    env = unbound.call("graph_callers", {"symbol_id": ADD_SKU})
    assert env["answer"] == ("0 bound callers of Unbound.Basket.AddItem within depth 1 + 2 unbound calls named "
                             "AddItem that could be it (in 2 more members).")
    assert env["data"]["nodes"] == [] and env["data"]["unbound_calls"]["items"] == UNBOUND_ADDS
    assert "guidance" not in env or "Entry points" not in str(env.get("guidance"))


def test_callers_without_unbound_calls_say_nothing_of_them(unbound: McpServerProcess) -> None:
    env = unbound.call("graph_callers", {"symbol_id": TO_BASKET})
    assert env["answer"] == "1 bound caller of Unbound.BasketService.AddToBasket within depth 1."
    assert "unbound_calls" not in env["data"]


def test_refs_headline_adds_unbound_same_name(unbound: McpServerProcess) -> None:
    env = unbound.call("refs_find", {"symbol_id": ADD})
    assert env["answer"] == ("3 references to Unbound.Basket.AddItem (3 Call), + 2 unbound references named AddItem "
                             "that could be it.")
    assert [(r["file"], r["line"]) for r in env["data"]["references"]] == [
        ("BasketService.cs", 14), ("BasketService.cs", 15), ("BasketService.cs", 18)]


def test_callees_and_trace_count_unbound_apart(unbound: McpServerProcess) -> None:
    calls = unbound.call("graph_callees", {"symbol_id": IMPORT_ALL})  # by default counted, not listed
    assert calls["answer"] == ("0 callees of Unbound.LegacyImporter.ImportAll within depth 1, + 4 unbound calls "
                               "(AddItem, Create, GetByIdAsync, Repository).")
    assert calls["data"]["nodes"] == [] and "all_edges=true lists them" in " ".join(calls["warnings"])
    env = unbound.call("graph_callees", {"symbol_id": IMPORT_ALL, "all_edges": True})
    assert env["answer"] == calls["answer"]
    add = next(n for n in env["data"]["nodes"] if n["name"] == "AddItem")
    # The call site's file is the root's (LegacyImporter.cs): said once, by the root.
    assert add["edges"] == [{"kind": "Call", "count": 1, "line": 17, "unbound": True, "receiver": "basket"}]
    trace = unbound.call("graph_trace_feature", {"entry_point": IMPORT_ALL})
    assert trace["answer"] == (f"0 nodes under {IMPORT_ALL} within depth 3, 0 facts, + 4 unbound calls "
                               "(AddItem, Create, GetByIdAsync, Repository). Stopped: 4 unbound.")
    assert [(p["reason"], p["call"], p.get("receiver")) for p in trace["data"]["stops"]["places"]] == [
        ("unbound", "Create", "factory"), ("unbound", "AddItem", "basket"), ("unbound", "Repository", "factory"),
        ("unbound", "GetByIdAsync", "repo")]
    first = trace["data"]["nodes"][0]
    assert (first["name"], first["from"]) == ("Create", {"from": IMPORT_ALL, "kind": "Call", "unbound": True,
                                                         "receiver": "factory", "file": "LegacyImporter.cs",
                                                         "line": 16})


def test_plain_names_resolve_or_are_ambiguous(unbound: McpServerProcess) -> None:
    for tool in ("refs_find", "graph_callers", "graph_callees"):
        env = unbound.call(tool, {"symbol_id": "Basket.AddItem"})
        assert env["error"]["code"] == "AMBIGUOUS", tool
        assert [c["symbol_id"] for c in env["error"]["candidates"]] == [ADD, ADD_SKU]
    named = unbound.call("graph_callers", {"symbol_id": "BasketService.AddToBasket"})
    assert named["data"]["root"]["symbol_id"] == TO_BASKET and node_ids(named) == [(RUN, 1)]
    full = unbound.call("refs_find", {"symbol_id": "Unbound.Checkout.Run"})
    assert full["data"]["symbol"]["symbol_id"] == RUN
    hierarchy = unbound.call("types_hierarchy", {"symbol_id": "Basket"})
    assert hierarchy["data"]["symbol_id"] == "T:Unbound.Basket"
    # whole segments only: `Service.AddToBasket` is not BasketService.AddToBasket
    partial = unbound.call("refs_find", {"symbol_id": "Service.AddToBasket"})
    assert partial["error"]["code"] == "NOT_FOUND"


def test_refs_by_member_name_and_receiver_type(unbound: McpServerProcess) -> None:
    typed = unbound.call("refs_find", {"name": "GetByIdAsync", "receiver_type": "IRepository"})
    assert typed["answer"] == ("No declared symbol 'IRepository.GetByIdAsync': 1 unbound call named GetByIdAsync on "
                               "a receiver like IRepository (unbound matches, not bound references) in 1 member.")
    assert typed["data"]["references"] == [{**REPO_CALL, "receiver_declared_type": "IRepository<Basket>"}]
    assert typed["data"]["unbound_match"]["same_name"] == 2
    assert typed["warnings"][-1].startswith("1 more unbound references are named 'GetByIdAsync'")
    dotted = unbound.call("refs_find", {"symbol_id": "IRepository<T>.GetByIdAsync"})
    assert dotted["answer"] == typed["answer"] and dotted["data"]["references"] == typed["data"]["references"]
    any_receiver = unbound.call("refs_find", {"name": "GetByIdAsync"})
    assert any_receiver["data"]["references"] == [REPO_CALL, LOCAL_CALL]


def test_callers_by_member_name(unbound: McpServerProcess) -> None:
    env = unbound.call("graph_callers", {"name": "GetByIdAsync", "receiver_type": "IRepository", "depth": 3})
    assert env["answer"] == ("No declared symbol 'IRepository.GetByIdAsync': 1 member makes 1 unbound call named "
                             "GetByIdAsync on a receiver like IRepository (unbound matches, depth 1).")
    assert [(n["symbol_id"], n["unbound"], n["edges"]) for n in env["data"]["nodes"]] == [
        (LOAD, True, [{"receiver": "_repository", "file": "BasketService.cs", "line": 20, "kind": "Call"}])]
    assert env["meta"]["limits_applied"]["max_depth"] == {"requested": 3, "applied": 1}


def test_bad_name_arguments(unbound: McpServerProcess) -> None:
    both = unbound.call("refs_find", {"symbol_id": ADD, "name": "AddItem"})
    assert both["error"]["code"] == "INVALID_ARGUMENT"
    neither = unbound.call("graph_callers", {})
    assert neither["error"]["code"] == "INVALID_ARGUMENT" and "name" in neither["error"]["hint"]
    nothing = unbound.call("refs_find", {"name": "Vanish"})
    assert nothing["error"]["code"] == "NOT_FOUND"
    mistyped = unbound.call("refs_find", {"name": "GetByIdAsync", "receiver_type": "IOrderStore"})
    assert mistyped["error"]["code"] == "NOT_FOUND"
    assert mistyped["error"]["hint"].startswith("2 unbound references are named 'GetByIdAsync'")


def test_headline_is_the_true_total_when_the_level_limit_cuts(unbound: McpServerProcess) -> None:
    one = unbound.call("graph_callers", {"symbol_id": ADD, "limit_per_level": 1})
    assert one["answer"] == ("2 bound callers of Unbound.Basket.AddItem within depth 1 (1 shown: limit_per_level=1)"
                             " + 2 unbound calls named AddItem that could be it (in 2 more members).")
    assert node_ids(one) == [(TO_BASKET, 1)]
    deeper = unbound.call("graph_callers", {"symbol_id": ADD, "limit_per_level": 1, "depth": 2})
    assert deeper["answer"].startswith("at least 3 bound callers of Unbound.Basket.AddItem within depth 2 (2 shown")


HOLD = "M:Unbound.Reservations.Hold(System.Int32)"
RESERVE_CALL = {"name": "Reserve", "receiver": "_service", "kind": "Call", "file": "Reservations.cs", "line": 12,
                "col": 49, "from_symbol_id": HOLD}


def test_the_compilers_candidates_decide_over_the_name(unbound: McpServerProcess) -> None:
    """eShopOnWeb's Basket page: `_basketService.AddItemToBasket(username, id, item.Price)` with `item` from a
    missing package. The compiler binds no call but names its candidates: the one it names is a likely
    caller, a member of the same name it does not name is not."""
    reserve = unbound.call("graph_callers", {"symbol_id": "M:Unbound.BasketService.Reserve(System.Int32)"})
    assert reserve["answer"] == ("0 bound callers of Unbound.BasketService.Reserve within depth 1 + 1 unbound call "
                                 "named Reserve (1 with it among the compiler's candidates) that could be it "
                                 "(in 1 more member).")
    assert reserve["data"]["unbound_calls"]["items"] == [{**RESERVE_CALL, "candidate": "only", "depth": 1}]
    # Warehouse.Reserve has the name, but the compiler's one candidate is BasketService.Reserve.
    other = unbound.call("graph_callers", {"symbol_id": "M:Unbound.Warehouse.Reserve(System.Int32)"})
    assert other["answer"] == "0 bound callers of Unbound.Warehouse.Reserve within depth 1."
    assert "unbound_calls" not in other["data"]
    refs = unbound.call("refs_find", {"symbol_id": "M:Unbound.Warehouse.Reserve(System.Int32)"})
    assert refs["answer"] == "0 references to Unbound.Warehouse.Reserve."
    listed = unbound.call("refs_find", {"symbol_id": "M:Unbound.BasketService.Reserve(System.Int32)",
                                        "resolution_state": "unresolved"})
    assert [(r["line"], r["candidate"]) for r in listed["data"]["references"]] == [(12, "only")]
    found = unbound.call("refs_find", {"symbol_id": "M:Unbound.BasketService.Reserve(System.Int32)"})
    assert found["answer"] == ("0 references to Unbound.BasketService.Reserve, + 1 unbound references named "
                               "Reserve that could be it.")
    assert "hint" not in found  # not "No references in the indexed solution": the warning names the unbound one
    # Two overloads, an argument of unknown type: either could be meant.
    label = unbound.call("graph_callers", {"symbol_id": "M:Unbound.Basket.Label(System.Int32)"})
    assert [(i["from_symbol_id"], i["candidate"]) for i in label["data"]["unbound_calls"]["items"]] == [
        ("M:Unbound.Reservations.Tag(Unbound.Basket)", "1 of 2")]


def test_impact_and_tests_say_what_unbound_calls_may_add(unbound: McpServerProcess) -> None:
    """What reaches a member only through a call the compiler could not bind is missing from the walk: the
    headline counts those calls instead of answering 0 as if complete. Label(Int32) is one of the two
    candidates of Tag's call."""
    label = "M:Unbound.Basket.Label(System.Int32)"
    impact = unbound.call("impact_analyze", {"symbol_id": label})
    assert impact["answer"] == (
        "Changing Unbound.Basket.Label touches 0 callers within depth 4, "
        "0 references in 0 files, 1 file of 1 project in all; 0 endpoints and 0 tests reach it, "
        "+ 1 unbound call named Label could reach it too (1 with it among the compiler's candidates).")
    assert impact["warnings"][-1].startswith("Calls the compiler could not bind (a missing package or reference, "
                                             "or a call on `dynamic`, which only the run time resolves) are not walked")
    tests = unbound.call("tests_find", {"symbol_id": label})
    assert tests["answer"] == ("0 tests reach Unbound.Basket.Label within depth 4, + 1 unbound call named "
                               "Label could reach it too (1 with it among the compiler's candidates).")
    assert tests["warnings"][-1].startswith("Calls the compiler could not bind")


def test_tests_and_impact_walk_a_call_whose_only_candidate_is_the_member(unbound: McpServerProcess) -> None:
    """Hold's call to Reserve cannot be bound, but the compiler's one candidate is Reserve (eShopOnWeb's Basket
    page calling AddItemToBasket): the walk goes through it, to the test calling Hold, and says so."""
    reserve = "M:Unbound.BasketService.Reserve(System.Int32)"
    hold = "M:Unbound.Reservations.Hold(System.Int32)"
    tests = unbound.call("tests_find", {"symbol_id": reserve})
    assert tests["answer"] == ("1 test reaches Unbound.BasketService.Reserve within depth 4, walking 1 unbound call "
                               "whose only compiler candidate is the member it calls.")
    assert [(t["test"], t["depth"], t["via"], t["attribute"]) for t in tests["data"]["tests"]] == [
        ("M:Unbound.ReservationTests.HoldsStock", 2, [hold], "Fact")]  # [Fact] binds to nothing: still a test
    assert "warnings" not in tests or not any(w.startswith("Calls the compiler") for w in tests["warnings"])
    impact = unbound.call("impact_analyze", {"symbol_id": reserve})
    assert impact["answer"] == (
        "Changing Unbound.BasketService.Reserve touches 2 callers (1 of them tests) within depth 4, "
        "0 references in 0 files, 3 files of 1 project in all; 0 endpoints and 1 test reach it, "
        "walking 1 unbound call whose only compiler candidate is the member it calls.")
    assert impact["data"]["callers"] == [
        {"symbol_id": hold, "depth": 1, "file": "Reservations.cs", "line": 12, "candidate": "only"}]


def test_a_class_an_unbound_call_may_reach_is_not_said_unused(unbound: McpServerProcess) -> None:
    """eShopOnWeb's BasketGuards where Ardalis.GuardClauses cannot be restored: `Guard.Against.OutOfStock(q)`
    cannot be bound, so StockGuards (named by nothing) may still be used through OutOfStock. Its other member,
    Discontinued, is named by no call at all: it is listed."""
    env = unbound.call("symbols_unused", {})
    # Without the rule: [T:Unbound.StockGuards] alone, its members said by it.
    # Composition.cs: AuditedOrder derives from an implementer of IAuditable, which a constructor names in its body
    # only (no DI resolves it): listed; WarmCaches (an IStartupTask a constructor takes) is not.
    assert [u["symbol_id"] for u in env["data"]["unused"]] == [
        "T:Unbound.Composition.AuditedOrder", "M:Unbound.StockGuards.Discontinued(IGuardClause,System.Boolean)"]
    # StockGuards and OutOfStock among them.
    assert env["data"]["excluded"]["unbound_name"]["count"] == 3  # 1 before this rule
    # The migration designer's BuildTargetModel (EF Core not restored: nothing says it overrides) is EF's to call; it
    # was left out only as "public API" of the library, which a protected member of an internal class is not.
    assert env["data"]["excluded"]["framework_entry"]["count"] == 1
    # Purging.cs: PurgeHandler.Handle misses its interface's signature (CS0738, no Implementation reference), but is
    # a handler's Handle, the mediator's to call (Contoso's six MediatR 11 handlers on MediatR 12 were "unused").
    # 1 without the handler rule and the next one: Composition.cs's WarmCaches implements IStartupTask through its base
    # class, as Radarr's BrowserConfig, and is counted with the classes implementing an interface themselves.
    assert env["data"]["excluded"]["dispatch"]["count"] == 3
    # PurgeClock's explicit `Missing.Clocks.IClock.Now` is private, yet implements the unbound interface
    # (fullstackhero's test doubles of Finbuckle's accessor were listed unused). Messages.cs: OrderShippedConsumer's
    # Consume, of MassTransit's unbound IConsumer<T>.
    assert env["data"]["excluded"]["unbound_base"]["count"] == 2


def test_generated_code_keeps_its_bound_references_and_drops_its_unbound_names(unbound: McpServerProcess) -> None:
    """Migrations/…Designer.cs (`// <auto-generated />`, its EF Core missing): `b.AddItem(1, 2)` on a builder of
    unknown type is not one more unbound call named AddItem (test_callers_count_and_name_unbound_calls: still 2),
    while its bound call of Describe is a reference."""
    env = unbound.call("refs_find", {"symbol_id": "M:Unbound.Migrations.Baskets.Describe"})
    assert [(r["file"], r["line"], r["kind"]) for r in env["data"]["references"]] == [
        ("Migrations/20240101000000_Baskets.Designer.cs", 16, "Call")]
    calls = unbound.call("graph_callers", {"symbol_id": ADD})["data"]["unbound_calls"]
    assert [(c["file"], c["line"]) for c in calls["items"]] == [("LegacyImporter.cs", 10), ("LegacyImporter.cs", 17)]


def test_a_trace_goes_on_through_a_call_whose_only_candidate_is_a_member(unbound: McpServerProcess) -> None:
    """Hold's `_service.Reserve(_stock.Available(id))` does not bind (ExternalStock is missing), but the compiler's one
    candidate is BasketService.Reserve: the trace goes on into it (`inferred: sole_candidate`), as graph_callers and
    impact_analyze do (realworld's CreateToken)."""
    env = unbound.call("graph_trace_feature", {"entry_point": "M:Unbound.Reservations.Hold(System.Int32)", "depth": 1})
    assert [(n["symbol_id"], n["from"]["kind"], n["from"].get("inferred")) for n in env["data"]["nodes"]
            if n.get("symbol_id")] == [("M:Unbound.BasketService.Reserve(System.Int32)", "Call", "sole_candidate")]


def test_a_base_that_did_not_bind_is_named_in_the_hierarchy(unbound: McpServerProcess) -> None:
    """fullstackhero's BaseDbContext derives from Finbuckle's MultiTenantDbContext, a package not restored: the
    headline said "base None". Purging.cs's PurgeClock names Missing.Clocks.IClock, which nothing defines."""
    env = unbound.call("types_hierarchy", {"symbol_id": "T:Unbound.Purging.PurgeClock"})
    assert env["answer"] == "Class Unbound.Purging.PurgeClock: base IClock (unresolved), 1 interfaces."


def test_di_registrations_that_did_not_bind_are_said_missing(unbound: McpServerProcess) -> None:
    """Composition.cs wires through a container of a package not referenced (Radarr's DryIoc): "0 DI registrations"
    alone read as "none". The three container calls are named; `hooks.Register(..)` is no container's."""
    env = unbound.call("surfaces_list", {"kind": "di", "filter": "ClockSource"})
    assert env["answer"] == "0 DI registrations."
    assert env["warnings"] == [
        "3 calls named like DI registrations did not bind (Register, RegisterDelegate, RegisterMany; at "
        "Composition.cs:11, Composition.cs:12...): what they register is not listed. A container package that did "
        "not restore is the usual cause (index_status says which)."]


def test_a_message_initializer_published_with_its_package_missing_reaches_its_consumer(
        unbound: McpServerProcess) -> None:
    """Messages.cs, MassTransit not referenced: `publishEndpoint.Publish<OrderShipped>(new { Id = id })` is unbound,
    yet the message is the type argument written (an anonymous object as a named type is MassTransit's initializer),
    taken by the consumer of its ConsumeContext<OrderShipped> (both were missed: no fact, no handler)."""
    env = unbound.call("graph_trace_feature", {"entry_point": "M:Unbound.ShippingNotice.Notify(System.Int32)"})
    assert [f for f in env["data"]["root"]["facts"] if f["kind"] == "MediatorRequest"] == [
        {"kind": "MediatorRequest", "key": "T:Unbound.OrderShipped", "line": 9, "confidence": "medium",
         "call": "Publish", "request": "OrderShipped", "bus": True}]
    consume = "M:Unbound.OrderShippedConsumer.Consume(MassTransit.ConsumeContext{Unbound.OrderShipped})"
    assert [(n["symbol_id"], n["from"]["kind"], n["from"].get("via")) for n in env["data"]["nodes"]] == [
        (None, "Call", None), (consume, "Mediator", "T:Unbound.OrderShipped")]

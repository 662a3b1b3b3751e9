"""Event sourcing on the "Critter Stack" (testdata/Critter: Wolverine HTTP and Marten), as oskardudycz/
EventSourcing.NetCore's Helpdesk.Wolverine writes it: endpoints are methods carrying `[WolverinePost("/api/...")]` on
any class, and a Marten projection's Transform/Project/Apply/Create methods are found by name and called from code
Marten generates. Helpdesk.Wolverine's 16 endpoints were not listed, and its history projection's ten Transform
methods were "unused", and its Alba scenario tests reached none of them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

TICKETS = "Critter.Api/Tickets.cs"
HISTORY = "M:Critter.Api.TicketHistoryTransformation."
ENDPOINTS = "M:Critter.Api.TicketEndpoints."
TESTS = "M:Critter.Tests.TicketTests."


@pytest.fixture(scope="module")
def critter(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Critter", tmp_path_factory, home)


def test_wolverine_attribute_routes_are_endpoints(critter: McpServerProcess) -> None:
    """A template without its leading `/` and one with a trailing `/` are served as `/api/tickets/{ticketId:guid}`."""
    env = critter.call("surfaces_list_endpoints", {})
    assert env["ok"], env
    assert [(e["method"], e["route"], e["handler"], e["file"], e["line"], e["source"], e["confidence"])
            for e in env["data"]["endpoints"]] == [
        ("POST", "/api/tickets", "M:Critter.Api.TicketEndpoints.Open(Critter.Api.OpenTicket)", TICKETS, 25,
         "wolverine", "high"),
        ("GET", "/api/tickets/{ticketId:guid}", "M:Critter.Api.TicketEndpoints.Get(System.Guid,Marten.IQuerySession)",
         TICKETS, 28, "wolverine", "high"),
        ("DELETE", "/api/tickets/{ticketId:guid}", "M:Critter.Api.TicketEndpoints.Close(System.Guid)", TICKETS, 32,
         "wolverine", "high"),
        ("POST", "/api/tickets/{ticketId:guid}/reopen",
         "M:Critter.Api.TicketReopening.Reopen(System.Guid,Wolverine.IMessageBus)", TICKETS, 78, "wolverine", "high")]


def test_marten_projection_methods_are_not_unused(critter: McpServerProcess) -> None:
    """Transform and Project on an EventProjection Marten's generator did not dispatch (the class is not partial)
    are framework entries; Describe, a name Marten does not call, stays unused. The aggregates' Apply/Create are
    referenced by the generator's dispatcher. Wolverine's convention handlers (a *Handler or *Consumer class's public
    Handle/Consume methods, static or not) are framework entries though nothing sends their messages: Wolverine
    cascades a message an endpoint returns (both classes were "unused")."""
    env = critter.call("symbols_unused", {})
    assert env["ok"], env
    assert [u["symbol_id"] for u in env["data"]["unused"]] == [f"{HISTORY}Describe(Critter.Api.TicketClosed)"]
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        # three endpoints, Transform, Project, the endpoints' class; TicketClosedHandler.Handle,
        # TicketAuditConsumer.ConsumeAsync and .Handle (Wolverine's handlers by convention) and their two classes;
        # CritterTestFramework, which `[assembly: TestFramework("Critter.Tests.CritterTestFramework", ...)]` names;
        # TicketReopening.Reopen (an endpoint), ReopenTicketHandler.Handle and TicketPrioritisedHandler.Handle (static)
        # and their classes
        "framework_entry": 18,
        "generated_code": 4,  # TicketDetails' and TicketDetailsProjection's Create and Apply
        "constructed": 2,  # CritterTestFramework's and TicketPrioritised's constructors
        # public properties, and TicketPriority's Low and High: positional TicketPrioritised.Priority holds the enum
        "serialization": 9,
        "entry_point": 1, "test": 3}


@pytest.mark.parametrize(("handler", "test", "line", "via", "route", "call"), [
    ("Open(Critter.Api.OpenTicket)", "Opening_a_ticket", 12, [], "POST /api/tickets", "POST /api/tickets"),
    ("Get(System.Guid,Marten.IQuerySession)", "Reading_a_ticket", 16,
     [f"{TESTS}ReadTicket(Alba.IAlbaHost,System.Guid)"], "GET /api/tickets/{ticketId:guid}",
     "GET /api/tickets/{ticketId}"),
    ("Close(System.Guid)", "Closing_a_ticket", 19, [], "DELETE /api/tickets/{ticketId:guid}",
     "DELETE /api/tickets/{Guid.Empty}")])
def test_alba_scenarios_are_functional_tests(critter: McpServerProcess, handler: str, test: str, line: int,
                                             via: list[str], route: str, call: str) -> None:
    """`x.Post.Json(body).ToUrl(url)` and `x.Get.Url(url)`/`x.Delete.Url(url)`: the verb is the scenario's property
    the chain starts from; a helper the test calls (ReadTicket) is its `via`."""
    env = critter.call("tests_find", {"symbol_id": f"{ENDPOINTS}{handler}"})
    assert env["ok"], env
    assert env["data"]["tests"] == [
        {"test": f"{TESTS}{test}", "framework": "xunit", "file": "Critter.Tests/TicketTests.cs", "line": line,
         "depth": 1, **({"via": via} if via else {}), "attribute": "Fact", "kind": "functional", "route": route,
         "call": call}]


def test_a_registration_chained_after_configure_is_listed(critter: McpServerProcess) -> None:
    """`services.AddCors().Configure<RouteOptions>(...).AddSignalR()`: the chain starts on the service collection
    and Configure returns it, so AddSignalR registers (it was lost behind the Configure call)."""
    env = critter.call("surfaces_list", {"kind": "di"})
    assert env["ok"], env
    assert [(r["service"], r["via"], r["line"], r.get("lifetime"), r["confidence"])
            for r in env["data"]["registrations"]] == [
        ("AddMarten", "AddMarten", 8, None, "high"), ("AddWolverineHttp", "AddWolverineHttp", 15, None, "high"),
        ("AddCors", "AddCors", 16, None, "high"), ("IHubContext<>", "AddSignalR", 16, "Singleton", "high")]


@pytest.mark.parametrize(("route", "endpoint", "message", "handler"), [
    ("DELETE /api/tickets/{ticketId:guid}", "Close(System.Guid)", "TicketClosed",
     "M:Critter.Api.TicketClosedHandler.Handle(Critter.Api.TicketClosed,"
     "Microsoft.Extensions.Logging.ILogger{Critter.Api.TicketClosed})"),
    ("POST /api/tickets", "Open(Critter.Api.OpenTicket)", "TicketOpened",
     "M:Critter.Api.TicketAuditConsumer.ConsumeAsync(Critter.Api.TicketOpened)")])
def test_a_returned_message_cascades_to_its_wolverine_handler(critter: McpServerProcess, route: str, endpoint: str,
                                                              message: str, handler: str) -> None:
    """The endpoint returns the message it makes; Wolverine hands it to the handler taking it (a static Handle on a
    *Handler class, a ConsumeAsync on a *Consumer): a `Mediator` edge, `inferred: cascaded`."""
    env = critter.call("graph_trace_feature", {"entry_point": route})
    assert env["ok"], env
    constructor = f"M:Critter.Api.{message}.#ctor(" + ("System.Guid)" if message == "TicketClosed"
                                                        else "System.Guid,System.String)")
    assert [(n["symbol_id"], n["depth"], n["from"]) for n in env["data"]["nodes"]] == [
        (constructor, 1, {"from": f"{ENDPOINTS}{endpoint}", "kind": "Instantiate"}),
        (handler, 1, {"from": f"{ENDPOINTS}{endpoint}", "kind": "Mediator", "via": f"T:Critter.Api.{message}",
                      "inferred": "cascaded"})]


def test_a_bus_invoke_reaches_a_static_wolverine_handler(critter: McpServerProcess) -> None:
    """`bus.InvokeAsync(new ReopenTicket(id))` on Wolverine 6's IMessageBus (InvokeAsync inherited from ICommandBus)
    is a send, and its handler is a static Handle: a `Mediator` edge, not inferred; the handler's returned
    TicketOpened cascades on."""
    env = critter.call("graph_trace_feature", {"entry_point": "POST /api/tickets/{ticketId:guid}/reopen"})
    assert env["ok"], env
    reopen = "M:Critter.Api.TicketReopening.Reopen(System.Guid,Wolverine.IMessageBus)"
    handler = "M:Critter.Api.ReopenTicketHandler.Handle(Critter.Api.ReopenTicket)"
    assert [(n["symbol_id"], n["depth"], n["from"]) for n in env["data"]["nodes"]] == [
        ("M:Critter.Api.ReopenTicket.#ctor(System.Guid)", 1, {"from": reopen, "kind": "Instantiate"}),
        (handler, 1, {"from": reopen, "kind": "Mediator", "via": "T:Critter.Api.ReopenTicket"}),
        ("M:Critter.Api.TicketOpened.#ctor(System.Guid,System.String)", 2, {"from": handler, "kind": "Instantiate"}),
        ("M:Critter.Api.TicketAuditConsumer.ConsumeAsync(Critter.Api.TicketOpened)", 2,
         {"from": handler, "kind": "Mediator", "via": "T:Critter.Api.TicketOpened", "inferred": "cascaded"})]

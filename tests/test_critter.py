"""Event sourcing on the "Critter Stack" (testdata/Critter: Wolverine HTTP and Marten), as oskardudycz/
EventSourcing.NetCore's Helpdesk.Wolverine writes it: endpoints are methods carrying `[WolverinePost("/api/...")]` on
any class, and a Marten projection's Transform/Project/Apply/Create methods are found by name and called from code
Marten generates. Helpdesk.Wolverine's 16 endpoints were not listed, and its history projection's ten Transform
methods were "unused"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

TICKETS = "Critter.Api/Tickets.cs"
HISTORY = "M:Critter.Api.TicketHistoryTransformation."


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
         "wolverine", "high")]


def test_marten_projection_methods_are_not_unused(critter: McpServerProcess) -> None:
    """Transform and Project on an EventProjection Marten's generator did not dispatch (the class is not partial)
    are framework entries; Describe, a name Marten does not call, stays unused. The aggregates' Apply/Create are
    referenced by the generator's dispatcher."""
    env = critter.call("symbols_unused", {})
    assert env["ok"], env
    assert [u["symbol_id"] for u in env["data"]["unused"]] == [f"{HISTORY}Describe(Critter.Api.TicketClosed)"]
    assert {k: v["count"] for k, v in env["data"]["excluded"].items()} == {
        "framework_entry": 6,  # three endpoints, Transform, Project, and the endpoints' class
        "generated_code": 4,  # TicketDetails' and TicketDetailsProjection's Create and Apply
        "constructed": 1, "entry_point": 1, "serialization": 5}

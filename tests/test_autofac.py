"""Autofac registrations as DI registrations, over MCP stdio (testdata/Container, as
kgrzybek/modular-monolith-with-ddd registers its services: modules of fluent chains, scans, generic decorators).

A registration is read with the chain that follows it: what it is resolved as (`As`, `AsSelf`,
`AsImplementedInterfaces`, `AsClosedTypesOf`, `Keyed`) and for how long (`SingleInstance`, `InstancePer*`,
else a new instance per dependency; one instance for `RegisterInstance`). A module registration points at the
module's Load, where its registrations are.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

INFRA = "M:Container.App.InfrastructureModule.Load(Autofac.ContainerBuilder)"
MESSAGING = "M:Container.App.MessagingModule.Load(Autofac.ContainerBuilder)"
MAIN = "M:Program.<Main>$(System.String[])"
CACHING = "M:Container.App.CachingModule.Load(Autofac.ContainerBuilder)"


@pytest.fixture(scope="module")
def container(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Container", tmp_path_factory, home)


def test_each_service_of_a_registration_is_a_row(container: McpServerProcess) -> None:
    env = container.call("surfaces_list", {"kind": "di"})
    assert env["answer"] == "16 DI registrations (6 unknown, 5 Transient, 4 Singleton, 1 Scoped)."
    rows = [(r["service"], r.get("lifetime"), r.get("implementation"), r["form"], r.get("service_key"),
             r["registered_in"], r["line"]) for r in env["data"]["registrations"]]
    assert rows == [
        ("IClock", "Scoped", "SystemClock", "generic", None, INFRA, 9),
        ("IClock", None, "CachingClock", "decorator", None, INFRA, 13),  # as long as what it decorates
        ("IRepository<>", "Singleton", "MemoryRepository<>", "typeof", None, INFRA, 15),
        # AsImplementedInterfaces: IMailer and IAuditor, not IDisposable
        ("IMailer", "Transient", "SmtpMailer", "generic", None, INFRA, 19),
        ("IAuditor", "Transient", "SmtpMailer", "generic", None, INFRA, 19),
        ("Settings", "Singleton", "Settings", "factory", None, INFRA, 21),
        # Register<T>(factory): resolved as T, made as what the factory returns
        ("IClock", "Transient", "SystemClock", "factory", None, INFRA, 23),
        ("IHandler<>", "Transient", None, "scan", None, MESSAGING, 33),
        ("IHandler<>", None, "LoggingHandler<>", "decorator", None, MESSAGING, 37),
        ("IRequestHandler<,>", None, "LoggingDecorator<,>", "decorator", None, MESSAGING, 39),
        ("IRequestHandler<,>", None, "LoggingDecorator<,>", "decorator", None, MESSAGING, 40),
        ("IClock", "Singleton", "CachingClock", "generic", None, CACHING, 49),
        ("InfrastructureModule", None, None, "module", None, MAIN, 5),
        ("MessagingModule", None, None, "module", None, MAIN, 6),
        ("IPayments", "Singleton", "CardPayments", "instance", "card", MAIN, 7),
        ("OrderPlacedHandler", "Transient", "OrderPlacedHandler", "typeof", None, MAIN, 8)]
    assert {r["container"] for r in env["data"]["registrations"]} == {"autofac"}
    assert {r["confidence"] for r in env["data"]["registrations"]} == {"high"}


def test_ids_let_a_call_through_the_interface_reach_the_registered_type(container: McpServerProcess) -> None:
    env = container.call("surfaces_list", {"kind": "di", "filter": "IClock"})
    assert [(r["service_id"], r["implementation_id"], r.get("module_not_registered"))
            for r in env["data"]["registrations"]] == [
        ("T:Container.App.IClock", "T:Container.App.SystemClock", None),
        ("T:Container.App.IClock", "T:Container.App.CachingClock", None),
        ("T:Container.App.IClock", "T:Container.App.SystemClock", None),
        # CachingModule is never registered (RegisterModule): its registration is listed, marked, and not followed
        ("T:Container.App.IClock", "T:Container.App.CachingClock", True)]
    trace = container.call("graph_trace_feature", {"entry_point": MAIN, "depth": 1})
    assert [(n["symbol_id"], n["from"]["kind"], n.get("di_registered")) for n in trace["data"]["nodes"]
            if "Now" in n["symbol_id"]] == [
        ("M:Container.App.IClock.Now", "Call", None), ("M:Container.App.SystemClock.Now", "Dispatch", True)]


def test_a_module_registration_points_at_its_load(container: McpServerProcess) -> None:
    env = container.call("surfaces_list", {"kind": "di", "filter": "Module"})
    assert [(r["service_id"], r["via"], r["target"]) for r in env["data"]["registrations"]] == [
        ("T:Container.App.InfrastructureModule", "RegisterModule", INFRA),
        ("T:Container.App.MessagingModule", "RegisterModule", MESSAGING)]


def test_a_cancellation_callback_is_not_a_registration(container: McpServerProcess) -> None:
    """`cancel.Token.Register(...)` shares the name and binds to CancellationToken, not Autofac."""
    env = container.call("surfaces_list", {"kind": "di", "file": "Program.cs"})
    assert [r["line"] for r in env["data"]["registrations"]] == [5, 6, 7, 8]


def test_a_modules_decorator_wraps_only_that_modules_command_handlers(container: McpServerProcess) -> None:
    """Commands.cs (kgrzybek/modular-monolith-with-ddd): each module's LoggingDecorator is registered for the
    mediator's IRequestHandler<,> but implements its module's own ICommandHandler<,>: the trace of a Billing command
    shows Billing's decorator only, and a query (a plain IRequestHandler) none. Every module's decorator was shown
    around every request."""
    p, token = "M:Container.App.Commands.", "System.Threading.CancellationToken"

    def wrapped(entry: str) -> list[tuple[str, str]]:
        env = container.call("graph_trace_feature", {"entry_point": f"{p}BillingEndpoint.{entry}"})
        assert env["ok"], env
        return [(n["from"]["kind"], n["symbol_id"].removeprefix(p)) for n in env["data"]["nodes"]
                if n["from"]["kind"] in ("Decorator", "Mediator")]

    assert wrapped("Bill(System.Int32)") == [
        ("Decorator", f"Billing.LoggingDecorator`2.Handle(`0,{token})"),
        ("Mediator", f"Billing.BillCommandHandler.Handle(Container.App.Commands.Billing.BillCommand,{token})")]
    assert wrapped("Invoice(System.Int32)") == [
        ("Mediator", f"GetInvoiceHandler.Handle(Container.App.Commands.GetInvoice,{token})")]

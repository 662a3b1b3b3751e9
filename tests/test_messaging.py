"""MassTransit's messages on testdata/Messaging (MassTransit/Sample-Twitch): a request client's GetResponse, a send
endpoint's Send and a publish of a message initializer (`Publish<OrderAccepted>(new { OrderId = id })`, an anonymous
object: these were keyed `T:`, so every trace stopped at `no_handler`) reach the consumer taking the message in its
ConsumeContext<T>, or the saga state machine's `Event<T>` property; consumer definitions a registration scan finds
are not unused, nor members the compiler says do not implement their interface's (another version of the package).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import served_copy
from tests.mcp_client import McpServerProcess

CONTRACTS = "Messaging.Contracts."
CONTROLLER = "M:Messaging.Controllers.OrderController."
SUBMIT_CONSUME = (f"M:Messaging.Consumers.SubmitOrderConsumer.Consume(MassTransit.ConsumeContext{{{CONTRACTS}"
                  "SubmitOrder})")
FULFILL_CONSUME = (f"M:Messaging.Consumers.FulfillOrderConsumer.Consume(MassTransit.ConsumeContext{{{CONTRACTS}"
                   "FulfillOrder})")
SAGA = "P:Messaging.StateMachines.OrderStateMachine."


@pytest.fixture(scope="module")
def messaging(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Iterator[McpServerProcess]:
    yield from served_copy("Messaging", tmp_path_factory, home)


def _nodes(env: dict[str, Any]) -> list[tuple[int, str, str | None, str | None]]:
    return [(n["depth"], n["symbol_id"], n["from"]["kind"], n["from"].get("via")) for n in env["data"]["nodes"]]


def test_a_request_clients_message_reaches_its_consumer_and_the_event_it_publishes_the_saga(
        messaging: McpServerProcess) -> None:
    """`submitOrder.GetResponse<OrderSubmissionAccepted>(new { ... })` sends the client's SubmitOrder; its consumer
    publishes `Publish<OrderSubmitted>(new { ... })`, which the state machine's `Event<OrderSubmitted>` takes.
    FulfillOrderConsumer, whose body names SubmitOrder, is not SubmitOrder's consumer."""
    env = messaging.call("graph_trace_feature", {"entry_point": "POST /Order", "depth": 4})
    assert env["data"]["root"]["symbol_id"] == f"{CONTROLLER}Post(System.Guid,System.String)"
    sent = [f for f in env["data"]["root"]["facts"] if f["kind"] == "MediatorRequest"]
    assert sent == [{"kind": "MediatorRequest", "key": f"T:{CONTRACTS}SubmitOrder", "line": 15, "confidence": "high",
                     "call": "GetResponse", "request": "SubmitOrder", "bus": True}]
    assert _nodes(env) == [
        (1, SUBMIT_CONSUME, "Mediator", f"T:{CONTRACTS}SubmitOrder"),
        (2, f"{SAGA}OrderSubmitted", "Mediator", f"T:{CONTRACTS}OrderSubmitted"),
    ]
    assert env["data"]["stops"]["by_reason"] == {"external": 6}


def test_a_send_and_a_publish_of_message_initializers_reach_the_consumer_and_the_saga(
        messaging: McpServerProcess) -> None:
    """`endpoint.Send<FulfillOrder>(new { ... })` on the endpoint GetSendEndpoint gives; `publishEndpoint
    .Publish<OrderAccepted>(new { ... })`; a GetResponse<OrderStatus> of CheckOrder, which only the saga takes. The
    saga's `Event<Fault<FulfillOrder>>` takes no FulfillOrder."""
    put = messaging.call("graph_trace_feature", {"entry_point": "PUT /Order", "depth": 4})
    assert _nodes(put) == [(1, FULFILL_CONSUME, "Mediator", f"T:{CONTRACTS}FulfillOrder")]
    patch = messaging.call("graph_trace_feature", {"entry_point": "PATCH /Order", "depth": 4})
    # The saga's `When(OrderAccepted).Activity(x => x.OfType<AcceptOrderActivity>())` runs the activity (edge `Saga`).
    assert _nodes(patch) == [
        (1, f"{SAGA}OrderAccepted", "Mediator", f"T:{CONTRACTS}OrderAccepted"),
        (2, "M:Messaging.StateMachines.AcceptOrderActivity.Execute(MassTransit.BehaviorContext{Messaging."
            f"StateMachines.OrderState,{CONTRACTS}OrderAccepted}},MassTransit.IBehavior{{Messaging.StateMachines."
            "OrderState})", "Saga", "OrderAccepted")]
    get = messaging.call("graph_trace_feature", {"entry_point": "GET /Order", "depth": 4})
    assert _nodes(get) == [(1, f"{SAGA}StatusRequested", "Mediator", f"T:{CONTRACTS}CheckOrder")]


def test_a_published_message_nothing_consumes_is_a_no_handler_stop_naming_it(messaging: McpServerProcess) -> None:
    env = messaging.call("graph_trace_feature", {"entry_point": "DELETE /Order", "depth": 4})
    assert _nodes(env) == []
    assert env["data"]["stops"]["places"] == [
        {"reason": "no_handler", "at": f"{CONTROLLER}Delete(System.Guid)", "request": f"T:{CONTRACTS}OrderArchived",
         "file": "Controllers/OrderController.cs", "line": 44}]


def test_a_consumers_and_a_saga_events_senders_are_named_and_walked(messaging: McpServerProcess) -> None:
    """No call edge reaches a consumer or a saga's event: graph_callers names who sends the message, and
    impact_analyze walks them up to the endpoint."""
    callers = messaging.call("graph_callers", {"symbol_id": SUBMIT_CONSUME})
    assert callers["data"]["nodes"] == []
    assert callers["warnings"] == [
        "Its request is sent through a mediator or a message bus by 1 member"
        f" ({CONTROLLER}Post(System.Guid,System.String)): not call edges; impact_analyze and tests_find walk them"
        " (`through: mediator`)."]
    impact = messaging.call("impact_analyze", {"symbol_id": f"{SAGA}OrderSubmitted"})
    assert [(c["symbol_id"], c["depth"], c.get("through")) for c in impact["data"]["callers"]] == [
        (SUBMIT_CONSUME, 1, "mediator"),
        ("M:Messaging.StateMachines.OrderStateMachine.#ctor", 1, None),
        (f"{CONTROLLER}Post(System.Guid,System.String)", 2, "mediator"),
    ]
    assert [e["endpoint"] for e in impact["data"]["endpoints"]] == ["POST /Order"]


def test_a_consumer_definition_a_registration_scan_finds_is_not_unused(messaging: McpServerProcess) -> None:
    """FulfillOrderConsumerDefinition (its retry policy and concurrency limit) is named by nothing:
    `AddConsumersFromNamespaceContaining<SubmitOrderConsumer>()` finds it with its consumer."""
    unused = messaging.call("symbols_unused", {})
    # Registrations.cs's class, which nothing calls (its registrations are test_masstransit_registrations_...'s).
    assert [(u["symbol_id"], u["line"]) for u in unused["data"]["unused"]] == [("T:Messaging.MoreRegistrations", 9)]
    assert {k: v["count"] for k, v in unused["data"]["excluded"].items()} == {
        # the constructors of OrderController, OrderStateMachine and the definition; the two Consume methods,
        # ConfigureConsumer, AcceptOrderActivity's Probe and Accept, and its Execute and Faulted, which the compiler
        # says do not implement IStateMachineActivity's (CS0535: written for another MassTransit; they were
        # "unused"); Program's top-level statements; the controller and its five actions, and the definition; the
        # five public properties no code reads (OrderStatus.State, the saga's two State properties...); with
        # ShippingStateMachine (test_a_saga_event_goes_on_...), its constructor and ShipActivity's four members.
        "constructed": 4, "dispatch": 11, "entry_point": 1, "framework_entry": 7, "serialization": 5}


def test_masstransit_retry_and_redelivery_filters_are_retry_policies(messaging: McpServerProcess) -> None:
    """Sample-Twitch's four `UseMessageRetry(r => r.Interval(3, 1000))` in its definitions: "0 retry policies"."""
    env = messaging.call("surfaces_list", {"kind": "retries"})
    configure = ("M:Messaging.Consumers.FulfillOrderConsumerDefinition.ConfigureConsumer(MassTransit."
                 "IReceiveEndpointConfigurator,MassTransit.IConsumerConfigurator{Messaging.Consumers."
                 "FulfillOrderConsumer},MassTransit.IRegistrationContext)")
    assert env["data"]["policies"] == [
        {"policy": "Redelivery", "retries": 2, "configured_in": configure, "project": "Messaging",
         "file": "Consumers/FulfillOrderConsumerDefinition.cs", "line": 16, "confidence": "high"},
        {"policy": "MessageRetry", "retries": 3, "ignores": ["InvalidOperationException"], "configured_in": configure,
         "project": "Messaging", "file": "Consumers/FulfillOrderConsumerDefinition.cs", "line": 17,
         "confidence": "high"},
        # `Intervals(x)` with one interval is one retry (not x retries, nor unknown).
        {"policy": "Redelivery", "retries": 1, "configured_in": configure, "project": "Messaging",
         "file": "Consumers/FulfillOrderConsumerDefinition.cs", "line": 23, "confidence": "high"},
        {"policy": "MessageRetry", "retries": 1, "configured_in": configure, "project": "Messaging",
         "file": "Consumers/FulfillOrderConsumerDefinition.cs", "line": 24, "confidence": "high"},
    ]


def test_masstransit_registrations_on_its_configurator_are_di_registrations(messaging: McpServerProcess) -> None:
    """Sample-Twitch's `cfg.AddSagaStateMachine<OrderStateMachine, OrderState>()`, `AddRequestClient<T>()` and
    `AddConsumersFromNamespaceContaining<T>()` were not in surfaces_list(kind="di"): only calls on `services` were
    read. A scan is said by its call and anchor type (not form "scan", an Autofac assembly scan); a routing slip
    builder's `AddActivity("name", uri)` registers nothing (Registrations.cs)."""
    env = messaging.call("surfaces_list", {"kind": "di", "limit": 50})
    rows = [(r["service"], r.get("lifetime"), r["form"], r.get("via"), r.get("implementation"), r["file"], r["line"])
            for r in env["data"]["registrations"] if r.get("container") == "masstransit"]
    assert rows == [
        ("AddConsumersFromNamespaceContaining<SubmitOrderConsumer>", "Scoped", "extension",
         "AddConsumersFromNamespaceContaining", None, "Program.cs", 11),
        ("OrderStateMachine", "Singleton", "extension", "AddSagaStateMachine", "OrderStateMachine", "Program.cs", 12),
        ("IRequestClient<SubmitOrder>", "Scoped", "extension", "AddRequestClient", None, "Program.cs", 13),
        ("FulfillOrderConsumer", "Scoped", "extension", "AddConsumer", "FulfillOrderConsumer", "Registrations.cs", 13),
        ("IRequestClient<CheckOrder>", "Scoped", "extension", "AddRequestClient", None, "Registrations.cs", 14)]


def test_a_saga_event_goes_on_into_the_behaviours_its_when_chain_wires(messaging: McpServerProcess) -> None:
    """Sample-Twitch's OrderStateMachine: a trace reaching the `Event<T>` property stopped there, though the
    constructor's `Initially(When(Evt).Then(ctx => ...).Activity(x => x.OfType<T>()))` runs code of the solution.
    OrderStateMachine.cs's ShippingStateMachine: `Shipped` runs its Then lambda's call and the activity's Execute (edge
    `Saga`, `via` the event), not `Cancelled`'s."""
    machines = "Messaging.StateMachines."
    env = messaging.call("graph_trace_feature", {"entry_point": f"P:{machines}ShippingStateMachine.Shipped",
                                                 "depth": 1})
    assert _nodes(env) == [
        (1, f"M:{machines}ShippingLog.Record(System.Guid)", "Saga", "Shipped"),
        (1, f"M:{machines}ShipActivity.Execute(MassTransit.BehaviorContext{{{machines}OrderState,"
            f"{machines}OrderShipped}},MassTransit.IBehavior{{{machines}OrderState,{machines}OrderShipped}})", "Saga",
         "Shipped")]
    cancelled = messaging.call("graph_trace_feature", {"entry_point": f"P:{machines}ShippingStateMachine.Cancelled",
                                                       "depth": 1})
    assert _nodes(cancelled) == [(1, f"M:{machines}ShippingLog.Forget(System.Guid)", "Saga", "Cancelled")]

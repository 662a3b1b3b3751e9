"""Messages addressed by a topic string (the bridge's TopicFacts): CAP's `capBus.PublishAsync("orders.created", o)`
runs the methods carrying `[CapSubscribe("orders.created")]`, Dapr's `PublishEventAsync("pubsub", "orders", o)` the
ones carrying `[Topic("pubsub", "orders")]`. No call binds the two: the link is the strings.

- A subscriber: a `TopicSubscriber` fact, a method and its attribute's positional constant strings.
- A publish: a `TopicPublish` fact, a `Publish*` call and its positional constant strings.
- A publish reaches a subscriber when it names every string of the subscriber's attribute (CAP's topic; Dapr's pub/sub
  component and topic), whatever the order: graph_trace_feature's `Topic` edge, and the publishers impact_analyze,
  tests_find and graph_callers' warning walk back (`through: topic`).
- A publish naming no subscriber's strings stops the trace (`no_subscriber`) only where the solution subscribes to
  some topic: elsewhere a `Publish*("x")` call is likely no topic bus at all.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from roslynmap.query.sql import in_chunks, memo
from roslynmap.query.typeargs import outside_window


@dataclass(frozen=True)
class TopicSide:
    """One subscriber (its method) or one publish (the member making it), with the attribute's or call's strings."""

    member: str
    strings: frozenset[str]
    topic: str  # the fact's key: a subscriber's last string (the topic), a publish's first
    file: str | None
    line: int


def _sides(conn: sqlite3.Connection, kind: str, members: Iterable[str] | None = None) -> list[TopicSide]:
    query = ("SELECT fa.symbol_id, fa.key, fa.detail, f.path, fa.line FROM facts fa LEFT JOIN files f"
             f" ON f.id = fa.file_id WHERE fa.kind = '{kind}' AND fa.symbol_id IS NOT NULL")
    rows = in_chunks(conn, query + " AND fa.symbol_id IN ({marks})", list(members)) if members is not None \
        else conn.execute(query).fetchall()
    return [TopicSide(str(member), frozenset(orjson.loads(detail or "{}").get("strings") or [key]), str(key), path,
                      int(line or 0))
            for member, key, detail, path, line in rows]


def subscribers(conn: sqlite3.Connection) -> list[TopicSide]:
    """Every subscriber of the solution, once per connection."""
    return memo(conn, "topic_subscribers", lambda: sorted(_sides(conn, "TopicSubscriber"),
                                                          key=lambda s: (s.member, s.file or "", s.line)))


def reached_by(publish: frozenset[str], found: list[TopicSide]) -> list[TopicSide]:
    """The subscribers a publish naming `publish` runs."""
    return [s for s in found if s.strings <= publish]


def topic_edges(conn: sqlite3.Connection, callers: Iterable[str],
                window: tuple[str, str, int, int] | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The trace's edges caller -> subscriber for the topics the callers publish (kind `Topic`, `via` the topic), and
    `no_subscriber` stops. `window` (caller, file, first line, last line): that caller's publishes from those lines
    only (a route's lambda)."""
    found = subscribers(conn)
    edges: list[dict[str, Any]] = []
    stops: list[dict[str, Any]] = []
    if not found:
        return edges, stops
    for publish in _sides(conn, "TopicPublish", callers):
        if outside_window(window, publish.member, publish.file, publish.line):
            continue
        reached = reached_by(publish.strings, found)
        for subscriber in reached:
            edges.append({"from": publish.member, "to": subscriber.member, "kind": "Topic", "via": subscriber.topic,
                          "count": 1, "file": publish.file, "line": publish.line})
        if not reached:
            stops.append({"reason": "no_subscriber", "at": publish.member, "topic": publish.topic,
                          "file": publish.file, "line": publish.line})
    return edges, stops


def topic_publishers(conn: sqlite3.Connection, members: Iterable[str]) -> dict[str, list[str]]:
    """Subscriber method -> the members publishing a topic it is subscribed to."""
    addresses: dict[str, list[frozenset[str]]] = {}  # subscriber -> the strings of each of its attributes
    for subscriber in subscribers(conn):
        addresses.setdefault(subscriber.member, []).append(subscriber.strings)
    wanted = [m for m in members if m in addresses]
    if not wanted:
        return {}
    publishes: list[TopicSide] = memo(conn, "topic_publishes", lambda: _sides(conn, "TopicPublish"))
    out: dict[str, list[str]] = {}
    for member in wanted:
        senders = sorted({p.member for p in publishes if any(want <= p.strings for want in addresses[member])})
        if senders:
            out[member] = senders
    return out

"""A MassTransit state machine's event behaviours (the bridge's `SagaEvent` facts).

The constructor wires them: `Initially(When(OrderSubmitted).Then(ctx => Notify(ctx)).Activity(x =>
x.OfType<AcceptOrderActivity>()).TransitionTo(Submitted))` (Sample-Twitch). A message reaching the `Event<T>` property
(graph_trace_feature's `Mediator` edge) runs that chain: the calls the wiring member makes on the chain's lines, and
each activity's `Execute`. Edge kind `Saga`, `via` the event's name. The calls are the chain's lines' calls: two
chains sharing a line share their calls.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

import orjson

from roslynmap.query import graph
from roslynmap.query.keys import ids_of, keys_of
from roslynmap.query.sql import in_chunks


def saga_edges(conn: sqlite3.Connection, events: Iterable[str]) -> list[dict[str, Any]]:
    """Edges event property -> what its behaviours call (kind `Saga`)."""
    rows = in_chunks(conn, "SELECT fa.symbol_id, fa.key, fa.detail, f.path, fa.line FROM facts fa LEFT JOIN files f"
                     " ON f.id = fa.file_id WHERE fa.kind = 'SagaEvent' AND fa.key IN ({marks})"
                     " ORDER BY f.path, fa.line", list(events))
    if not rows:
        return []
    wiring_keys = keys_of(conn, {str(r[0]) for r in rows if r[0]})
    edges: list[dict[str, Any]] = []
    for wiring, event, detail, file, line in rows:
        info = orjson.loads(detail or "{}")
        via = str(info.get("event") or event)
        key = wiring_keys.get(str(wiring))
        if key is not None and file is not None:
            window = (key, str(file), int(line), int(info.get("end_line") or line))
            calls = [r for r in graph._edges_out_of(conn, [key], window=window) if r[1] is not None
                     and r[3] in ("Call", "Instantiate")]
            names = ids_of(conn, (r[1] for r in calls))
            # The solution's members only: package code (MassTransit's `Then`, `Activity`) is never a node.
            declared = {str(r[0]) for r in in_chunks(conn, "SELECT symbol_id FROM symbols WHERE symbol_id IN ({marks})",
                                                      sorted(set(names.values())))}
            names = {k: v for k, v in names.items() if v in declared}
            for _caller, target, _name, _kind, count, at, at_file, _receiver in calls:
                if target in names:
                    edges.append({"from": event, "to": names[target], "kind": "Saga", "via": via, "count": count,
                                  "file": at_file, "line": at})
        for activity in info.get("activities") or []:
            for (execute,) in conn.execute("SELECT symbol_id FROM symbols WHERE container_id = ? AND name = 'Execute'"
                                           " ORDER BY symbol_id", (activity,)):
                edges.append({"from": event, "to": execute, "kind": "Saga", "via": via, "count": 1, "file": file,
                              "line": line})
    return edges

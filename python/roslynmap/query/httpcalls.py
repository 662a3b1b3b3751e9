"""HTTP calls of the solution into routes another of its apps serves (the bridge's `HttpCall` facts).

dapr-traffic-control's FineCollectionService calls `GetFromJsonAsync($"vehicleinfo/{licenseNumber}")` on an HttpClient
whose base address is VehicleRegistrationService (through the Dapr sidecar): no call binds the two apps, the link is
the path. A call's path is matched against the solution's endpoints as `graph_trace_feature` matches a route entry
point (templates, constraints, case-insensitive), by its HTTP method:

- a relative path, or an absolute URL to a host named without a dot (`localhost`, a docker-compose service such as
  `http://catalog-api/...`): the solution may serve it; a host with a dot (`https://api.github.com/...`) is another
  system's API, never linked, whatever its path;
- Dapr's invoke URL on the sidecar (`http://localhost:3500/v1.0/invoke/{app-id}/method/{path}`) calls `/{path}`;
- a route of parameters only (`MapDynamicControllerRoute<T>("/{**slug}")`, a SPA fallback) matches any path: no
  evidence the call goes there, not linked;
- a route served by a lambda is not linked (its handler is the member mapping it, whose other calls the request never
  runs), nor one the framework or a package serves (`MapHealthChecks`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from typing import Any

import orjson

from roslynmap.query import surfaces
from roslynmap.query.sql import in_chunks
from roslynmap.query.typeargs import outside_window

_HOLE = re.compile(r"\{[^}]*\}")
_DAPR_INVOKE = re.compile(r"^/v1\.0/invoke/[^/]+/method(/.*)?$")
# Routes the framework or a package serves with its own code: their `handler` is only the member mapping them
# (`app.MapHealthChecks("/health")` in Program), whose other calls the request never runs.
FRAMEWORK_SERVED = frozenset({"health_checks", "openapi", "scalar", "forwarder", "identity_api"})


def call_path(key: str) -> str:
    """An HttpCall key as a concrete path: the query string and an absolute URL's host dropped, Dapr's invoke prefix
    too, interpolation holes as one segment (`{x}`: a value not known, which meets any route constraint)."""
    path = _HOLE.sub("{x}", key.split("?", 1)[0])
    if "://" in path:  # an absolute URL: its path
        path = "/" + path.split("://", 1)[1].partition("/")[2]
    path = path if path.startswith("/") else "/" + path
    invoked = _DAPR_INVOKE.match(path)
    return (invoked.group(1) or "/") if invoked else path


def may_be_served_here(key: str) -> bool:
    """A relative path, or an absolute URL whose host has no dot (localhost, a compose service): not another
    system's public API."""
    if "://" not in key:
        return True
    host = key.split("://", 1)[1].partition("/")[0].partition(":")[0]
    return "." not in host or host == "127.0.0.1"


def _parameters_only(template: str) -> bool:
    return all(_HOLE.fullmatch(part) for part in template.strip("/").split("/"))


def http_edges(conn: sqlite3.Connection, callers: Iterable[str],
               window: tuple[str, str, int, int] | None = None) -> list[dict[str, Any]]:
    """The trace's edges caller -> the action serving the path it calls (kind `Http`, `via` the route as `METHOD
    /template`). `window` (caller, file, first line, last line): that caller's calls from those lines only."""
    rows = in_chunks(conn, "SELECT fa.symbol_id, fa.key, fa.detail, f.path, fa.line FROM facts fa LEFT JOIN files f"
                     " ON f.id = fa.file_id WHERE fa.kind = 'HttpCall' AND fa.symbol_id IN ({marks})"
                     " ORDER BY f.path, fa.line, fa.col", list(callers))
    edges: list[dict[str, Any]] = []
    for member, key, detail, file, line in rows:
        if outside_window(window, member, file, int(line or 0)) or not may_be_served_here(str(key)):
            continue
        method = str(orjson.loads(detail or "{}").get("method") or "GET")
        for route in surfaces.route_handlers(conn, f"{method} {call_path(str(key))}") or []:
            if (not route.get("handler") or route.get("handler_kind") == "lambda"
                    or route.get("source") in FRAMEWORK_SERVED or _parameters_only(str(route["route"]))):
                continue
            edges.append({"from": member, "to": route["handler"], "kind": "Http",
                          "via": f"{route['method']} {route['route']}", "count": 1, "file": file, "line": line})
    return edges

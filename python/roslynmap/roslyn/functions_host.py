"""The Azure Functions host's HTTP route prefix, as `FunctionsHost` facts (`host.json` beside a function app's project).

The host serves every HTTP-triggered function under `extensions.http.routePrefix` (`api` when unset, nothing when
empty): `[HttpTrigger(Route = "orders/{id}")]` answers at `/api/orders/{id}`. The bridge's Route facts of functions
(FunctionsFacts, source `azure_functions`) carry the route without it; query/surfaces.py adds the prefix of the
host.json in the route's project folder. host.json is no compiled file, so it is read here at every index.
"""

from __future__ import annotations

import json
from pathlib import Path

from roslynmap.model.kinds import FUNCTIONS_ROUTE_PREFIX
from roslynmap.model.records import FactRecord
from roslynmap.roslyn import jsonc


def host_facts(root: Path) -> list[FactRecord]:
    rows: list[FactRecord] = []
    for rel, text, data in jsonc.objects(root, ["host.json"]):
        if "version" not in data:
            continue  # a host.json of something else (the Functions host's always names its schema version)
        http = (data.get("extensions") or {}).get("http") if isinstance(data.get("extensions"), dict) else None
        prefix = http.get("routePrefix") if isinstance(http, dict) else None
        line = next((n for n, t in enumerate(text.splitlines(), start=1) if '"routePrefix"' in t), 1)
        rows.append(FactRecord("FunctionsHost", None, None, rel, line, 1, "high",
                               prefix.strip("/") if isinstance(prefix, str) else FUNCTIONS_ROUTE_PREFIX,
                               json.dumps({"set": isinstance(prefix, str)})))
    return rows

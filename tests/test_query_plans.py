"""Every statement the navigation tools run stays on an index (issue 3): each one traced on the real
Shop baseline, then checked with EXPLAIN QUERY PLAN. A full scan of a row table fails the test, unless
the table is so small (under SMALL rows: Shop has only a few partial declarations and facts) that a
scan is the planner's right choice; on the 100k benchmark baseline those use their indexes too."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from roslynmap.mcp import dispatch
from roslynmap.store.paths import baseline_path
from roslynmap.store.reader import open_baseline
from roslynmap.store.repo import inspect_repo

from tests.test_tools_nav import ISAVE, PLACE, SQL_SAVE

SMALL = 100
ROW_TABLES = ("refs", "symbols", "symbol_parts", "relations", "facts", "diagnostics", "ids")
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("refs_find", {"symbol_id": ISAVE}),
    ("refs_find", {"symbol_id": ISAVE, "kind": "Call", "file_path": "src/"}),
    ("refs_find", {"symbol_id": "T:Shop.Domain.Order", "resolution_state": "unresolved"}),
    ("graph_callers", {"symbol_id": SQL_SAVE, "depth": 3}),
    ("graph_callees", {"symbol_id": PLACE, "depth": 3}),
    ("types_hierarchy", {"symbol_id": "T:Shop.Domain.Discount", "transitive": True}),
    ("symbols_get_card", {"symbol_id": PLACE}),
]


def table_aliases(sql: str) -> dict[str, str]:
    """alias (or bare name) -> row table, for the row tables a statement names."""
    out: dict[str, str] = {}
    for table, alias in re.findall(rf"\b({'|'.join(ROW_TABLES)})\b(?:\s+(?!WHERE|ON|JOIN|LEFT|GROUP|ORDER)(\w+))?",
                                   sql):
        out[table] = table
        if alias:
            out[alias] = table
    return out


def test_navigation_statements_never_scan_a_row_table(shop: Path) -> None:
    info = inspect_repo(shop)
    conn = open_baseline(baseline_path(info.repo_id, info.commit))  # the connection dispatch reuses
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        for tool, args in CALLS:
            env, is_error = dispatch.run(tool, dict(args), str(shop), [])
            assert env["ok"] and not is_error, (tool, env)
    finally:
        conn.set_trace_callback(None)
    queries = sorted({s for s in statements if s.lstrip().upper().startswith("SELECT")})
    # Every row table the navigation tools read was checked (diagnostics: none of them reads it).
    assert {t for sql in queries for t in table_aliases(sql).values()} == set(ROW_TABLES) - {"diagnostics"}
    rows = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ROW_TABLES}
    assert rows == {"refs": 396, "symbols": 135, "symbol_parts": 1, "relations": 9, "facts": 16, "diagnostics": 0,
                    "ids": 180}  # refs, symbols and ids are big enough that a scan of them would show
    scans = []
    for sql in queries:
        aliases = table_aliases(sql)
        for row in conn.execute("EXPLAIN QUERY PLAN " + sql):
            match = re.match(r"SCAN (\w+)", row[3])
            if match and rows.get(aliases.get(match.group(1), ""), 0) >= SMALL and "COVERING INDEX" not in row[3]:
                scans.append((row[3], sql))
    assert scans == [], "\n".join(f"{d}  <-  {s}" for d, s in scans)

"""Correctness proof: stored references equal Roslyn's SymbolFinder.FindReferencesAsync.

For every indexed symbol (types, methods, constructors, operators, properties, indexers, fields,
constants, events, enum members) of the testdata solutions, the (file, line, column) set of stored
references must equal what SymbolFinder returns through the bridge. Legitimate differences are
classified, counted and reported:

- target-typed `new(...)`: the index records the instantiation (it is one); SymbolFinder does not
  report implicit object creations.
- `Override` and member-level `Implementation` rows sit on declarations, not on uses: they are
  relations SymbolFinder reports as definitions, so they are left out of the comparison.
- constructors of a type: SymbolFinder files the type name in `new T()` under the constructor;
  the index records the Instantiate against both, so the type's side includes those locations.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from roslynmap.roslyn.client import WorkerClient
from roslynmap.store.paths import baseline_path
from roslynmap.store.repo import inspect_repo

from tests.conftest import indexed_copy

AGREEMENT: dict[str, dict[str, Any]] = {}
Location = tuple[str, int, int]


def stored(conn: sqlite3.Connection, symbol_id: str) -> set[Location]:
    return {(r[0], r[1], r[2]) for r in conn.execute(
        "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id JOIN ids src ON src.key = r.from_key"
        " WHERE r.target_key = (SELECT key FROM ids WHERE symbol_id = ?)"
        " AND r.kind != 'Override' AND NOT (r.kind = 'Implementation' AND src.symbol_id NOT LIKE 'T:%')",
        (symbol_id,))}


def is_target_typed_new(root: Path, location: Location) -> bool:
    file, line, col = location
    text = (root / file).read_text().splitlines()[line - 1][col - 1:]
    return text.startswith(("new(", "new ("))


def compare(repo: Path, home: Path, label: str) -> dict[str, Any]:
    info = inspect_repo(repo)
    conn = sqlite3.connect(baseline_path(info.repo_id, info.commit))
    solution = next(p for p in sorted(repo.rglob("*")) if p.suffix in {".slnx", ".csproj"})
    worker = WorkerClient()
    summary: dict[str, Any] = {"symbols": 0, "agree": 0, "target_typed_new": 0, "unexplained": []}
    try:
        rows = conn.execute(
            "SELECT s.symbol_id, p.name FROM symbols s JOIN projects p ON p.id = s.project_id ORDER BY s.id").fetchall()
        for symbol_id, project in rows:
            oracle = worker.request({"op": "find_references", "repo_root": str(info.root),
                                     "solution": str(solution), "symbol_id": symbol_id, "project": project})
            theirs = {(f, line, col) for f, line, col in oracle["locations"]}
            if symbol_id.startswith("T:"):
                ctor_prefix = "M:" + symbol_id[2:] + ".#ctor"
                theirs |= {(c[0], c[1], c[2]) for c in oracle["cascaded"] if c[3].startswith(ctor_prefix)}
            ours = stored(conn, symbol_id)
            summary["symbols"] += 1
            extra = {loc for loc in ours - theirs if not is_target_typed_new(info.root, loc)}
            summary["target_typed_new"] += len(ours - theirs) - len(extra)
            missing = theirs - ours
            if not extra and not missing:
                summary["agree"] += 1
            else:
                summary["unexplained"].append({"symbol_id": symbol_id, "extra": sorted(extra),
                                               "missing": sorted(missing)})
    finally:
        worker.close()
    AGREEMENT[label] = summary
    return summary


def test_shop_references_equal_symbolfinder(shop: Path, home: Path) -> None:
    summary = compare(shop, home, "testdata/Shop")
    assert summary["unexplained"] == []
    assert summary["symbols"] == 135 and summary["agree"] == 135
    assert summary["target_typed_new"] == 6


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory, home: Path) -> Path:
    return indexed_copy("Broken", tmp_path_factory.mktemp("oracle") / "Broken", home, exit_code=2)


def test_broken_references_equal_symbolfinder(broken: Path, home: Path) -> None:
    summary = compare(broken, home, "testdata/Broken")
    assert summary["unexplained"] == []
    assert summary["symbols"] == 9 and summary["agree"] == 9

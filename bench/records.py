"""The baseline writer's hot path with three record representations (docs/architecture.md, "Bridge
records are NamedTuples"): decode 50,000 bridge ref records, build INSERT rows, executemany.

    .venv/bin/python bench/records.py     # CPU time, median of 7 per representation
"""

from __future__ import annotations

import sqlite3
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import orjson
from roslynmap.model.records import RefRecord

N = 50_000
RAW = orjson.dumps({"refs": [
    [f"M:Ns.T{i % 500}.M{i % 37}(System.Int32)", f"M{i % 37}", "Method", f"M:Ns.C{i % 900}.Caller", 0,
     f"src/F{i % 300}.cs", i % 400 + 1, 9, 14, "Call", "_repo" if i % 3 else None, None] for i in range(N)]})
SQL = ("INSERT INTO refs(id, target_key, target_name, target_kind, from_key, project_id, file_id, line, col,"
       " end_col, kind, receiver, candidates) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")


@dataclass(slots=True)
class RefSlots:
    target: str | None
    target_name: str
    target_kind: str | None
    source: str | None
    project: int
    file: str
    line: int
    col: int
    end_col: int
    kind: str
    receiver: str | None
    candidates: list[str] | None = None


class Interner:
    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def __call__(self, value: str | None) -> int | None:
        if value is None:
            return None
        return self.ids.setdefault(value, len(self.ids) + 1)


def timed(rows_of: Callable[[list[Any], Interner, Interner], Iterable[tuple[Any, ...]]]) -> float:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE refs(id INTEGER PRIMARY KEY, target_key, target_name, target_kind, from_key,"
               " project_id, file_id, line, col, end_col, kind, receiver, candidates)")
    started = time.process_time()
    db.executemany(SQL, rows_of(orjson.loads(RAW)["refs"], Interner(), Interner()))
    return time.process_time() - started


def positional(refs: list[Any], key: Interner, fid: Interner) -> list[tuple[Any, ...]]:
    return [(None, key(r[0]), r[1], r[2], key(r[3]), r[4], fid(r[5]), *r[6:11], None) for r in refs]


def named_tuples(refs: list[Any], key: Interner, fid: Interner) -> list[tuple[Any, ...]]:
    return [(None, key(t), n, tk, key(s), p, fid(f), line, col, end, k, recv, None)
            for t, n, tk, s, p, f, line, col, end, k, recv, _ in map(RefRecord._make, refs)]


def slotted(refs: list[Any], key: Interner, fid: Interner) -> list[tuple[Any, ...]]:
    return [(None, key(r.target), r.target_name, r.target_kind, key(r.source), r.project, fid(r.file), r.line,
             r.col, r.end_col, r.kind, r.receiver, None) for r in (RefSlots(*x) for x in refs)]


def main() -> None:
    runs: dict[str, list[float]] = {"positional lists": [], "NamedTuple": [], "dataclass(slots=True)": []}
    for _ in range(7):  # interleaved, so a burst of load hits every representation alike
        runs["positional lists"].append(timed(positional))
        runs["NamedTuple"].append(timed(named_tuples))
        runs["dataclass(slots=True)"].append(timed(slotted))
    for name, times in runs.items():
        print(f"{name:24s} {statistics.median(times) * 1000:7.1f} ms for {N} refs")


if __name__ == "__main__":
    main()

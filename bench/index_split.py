"""Where a full index spends its CPU beyond the compile floor (issue 16):

    ROSLYNMAP_PROFILE=1 python bench/index_split.py CHECKOUT[:SOLUTION] [--floor] [--json FILE]

Runs the worker's `index` (and with --floor, then the fair `compile_floor`) in this process, so every
phase can be timed: the bridge's extraction phases (thread CPU per phase, bridge Profile.cs: syntax
tree, GetDiagnostics, the walk, JSON encoding of batches), the Python side on the main thread (the
NextBatch call and its string, decode_batch, the writer's statements grouped by table, the end of the
index) and the process's CPU as a whole (what no phase accounts for is the GC, the JIT and Roslyn's
own background threads). Each run loads the solution afresh, as in bench/fair_floor.py.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

CPU: dict[str, float] = defaultdict(float)    # main-thread CPU seconds per phase
WALL: dict[str, float] = defaultdict(float)   # wall seconds per phase
MARKS: list[tuple[str, float, float]] = []     # (moment, process CPU, wall) for the process-wide split


def process_cpu() -> float:
    fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def timed(phase: str) -> Iterator[None]:
    cpu, wall = time.thread_time(), time.perf_counter()
    try:
        yield
    finally:
        CPU[phase] += time.thread_time() - cpu
        WALL[phase] += time.perf_counter() - wall


def wrap(owner: Any, name: str, phase: str) -> None:
    original = getattr(owner, name)

    def timed_call(*args: Any, **kwargs: Any) -> Any:
        with timed(phase):
            return original(*args, **kwargs)
    setattr(owner, name, timed_call)


STATEMENT = re.compile(r"\s*(INSERT(?: OR \w+)? INTO|UPDATE|CREATE INDEX|CREATE|SELECT|PRAGMA|ANALYZE|BEGIN|COMMIT)"
                       r"\s*(\w*)", re.I)


def statement_phase(sql: str) -> str:
    m = STATEMENT.match(sql)
    return f"sql.{m.group(1).split()[0].lower()} {m.group(2)}".strip() if m else "sql.other"


class TimedConnection:
    """A sqlite3 connection whose statements are timed by verb and table."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, *args: Any) -> Any:
        with timed(statement_phase(sql)):
            return self._db.execute(sql, *args)

    def executemany(self, sql: str, rows: Any) -> Any:
        rows = list(rows)  # the rows' construction is Python work, timed apart from SQLite's
        with timed(statement_phase(sql)):
            return self._db.executemany(sql, rows)

    def executescript(self, sql: str) -> Any:
        if "CREATE INDEX" in sql:
            for statement in filter(str.strip, sql.split(";")):
                with timed("sql.create index"):
                    self._db.execute(statement)
            return None
        with timed("sql.script"):
            return self._db.executescript(sql)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


class TimedSession:
    def __init__(self, session: Any) -> None:
        self._session = session

    def NextBatch(self, n: int) -> Any:
        with timed("py.next_batch (bridge call + string)"):
            return self._session.NextBatch(n)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


def instrument() -> None:
    from roslynmap.roslyn import worker
    from roslynmap.store import writer

    wrap(worker, "decode_batch", "py.decode_batch")
    wrap(worker, "package_references", "py.package_references")
    wrap(worker, "unloaded_projects", "py.unloaded_projects")
    wrap(worker, "definition_facts", "py.definition_facts")
    wrap(worker, "project_reference_facts", "py.project_reference_facts")
    wrap(writer.BaselineWriter, "add_batch", "py.writer.add_batch (total)")
    wrap(writer.BaselineWriter, "finish", "py.writer.finish (total)")
    original_finish = writer.BaselineWriter.finish

    def finish(self: Any, meta: dict[str, Any]) -> None:
        MARKS.append(("extracted", process_cpu(), time.perf_counter()))
        original_finish(self, meta)
    writer.BaselineWriter.finish = finish  # type: ignore[method-assign]
    wrap(writer.BaselineWriter, "publish", "py.writer.publish")
    wrap(writer, "name_terms", "py.name_terms")

    original_init = writer.BaselineWriter.__init__

    def init(self: Any, final_path: Path) -> None:
        original_init(self, final_path)
        self.db = TimedConnection(self.db)
        self.keys.db = self.db
    writer.BaselineWriter.__init__ = init  # type: ignore[method-assign]

    original_open = worker.Worker._open

    def open_(self: Any, *args: Any, **kwargs: Any) -> Any:
        with timed("load (bridge Open)"):
            session = TimedSession(original_open(self, *args, **kwargs))
        MARKS.append(("loaded", process_cpu(), time.perf_counter()))
        return session
    worker.Worker._open = open_  # type: ignore[method-assign]


def phases() -> dict[str, dict[str, float]]:
    """Process CPU and wall between consecutive marks (load, extraction, end of index)."""
    marks = [*MARKS, ("end", process_cpu(), time.perf_counter())]
    return {f"{a[0]}->{b[0]}": {"cpu_s": round(b[1] - a[1], 2), "wall_s": round(b[2] - a[2], 2)}
            for a, b in itertools.pairwise(marks)}


def largest(seconds: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 2) for k, v in sorted(seconds.items(), key=lambda kv: -kv[1]) if v >= 0.005}


def peak_rss_mb() -> float:
    """VmHWM of this process so far (the index's peak when it runs first)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def bridge_report(w: Any) -> dict[str, float]:
    return {k: float(v) for k, v in json.loads(str(w._session_type.ProfileReport())).items()}


def delta(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {k: round(v - before.get(k, 0.0), 3) for k, v in after.items() if round(v - before.get(k, 0.0), 3)}


def run(repo: Path, solution: str | None, floor: bool, order: str) -> dict[str, Any]:
    from roslynmap.roslyn.discovery import find_solution
    from roslynmap.roslyn.worker import Worker
    from roslynmap.store.repo import inspect_repo

    info = inspect_repo(repo)
    request = {"repo_root": str(info.root), "solution": str(find_solution(info.root, solution))}
    w = Worker()
    w.handle({"op": "ping"}, lambda _: None)
    w._bridge()  # the CLR and the bridge assembly: paid alike by floor and index
    out: dict[str, Any] = {}
    if os.environ.get("SPLIT_TRACE_WAIT"):  # time to attach `dotnet-trace collect -p PID` to this process
        print(f"[split] pid {os.getpid()}: waiting {os.environ['SPLIT_TRACE_WAIT']} s", flush=True)
        time.sleep(float(os.environ["SPLIT_TRACE_WAIT"]))
    ops = [op for op in order.split(",") if op == "index" or floor]
    for n, op in enumerate(ops):
        CPU.clear()
        WALL.clear()
        MARKS.clear()
        before = bridge_report(w)
        cpu0, wall0 = process_cpu(), time.perf_counter()
        MARKS.append(("start", cpu0, wall0))
        if op == "index":
            target = Path(os.environ["ROSLYNMAP_HOME"]) / f"{repo.name}-{time.time_ns()}.db"
            w.handle({"op": "index", **request, "out_path": str(target),
                      "meta": {"repo_id": info.repo_id, "commit": info.commit}}, lambda _: None)
        else:
            w.handle({"op": "compile_floor", **request, "options": "indexed"}, lambda _: None)
        out[f"{n}:{op}"] = {
            "process_cpu_s": round(process_cpu() - cpu0, 2), "wall_s": round(time.perf_counter() - wall0, 2),
            "process_phases": phases(),
            "peak_rss_mb": peak_rss_mb(),
            "bridge_cpu_s": delta(bridge_report(w), before),
            "main_thread_cpu_s": largest(CPU),
            "main_thread_wall_s": largest(WALL),
        }
    if os.environ.get("SPLIT_TRACE_TAIL"):  # a trace stopped before exit keeps its method names (rundown)
        print(f"[split] done: waiting {os.environ['SPLIT_TRACE_TAIL']} s", flush=True)
        time.sleep(float(os.environ["SPLIT_TRACE_TAIL"]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo")
    parser.add_argument("--floor", action="store_true", help="then the fair compile floor, in the same process")
    parser.add_argument("--order", default="index,fair_floor",
                        help="comma-separated runs in this process, e.g. fair_floor,index,index (warm second index)")
    parser.add_argument("--json")
    args = parser.parse_args()
    os.environ.setdefault("ROSLYNMAP_HOME", tempfile.mkdtemp(prefix="roslynmap-split-"))
    os.environ.setdefault("ROSLYNMAP_PROFILE", "1")  # "prebind": see Profile.cs
    head, sep, tail = args.repo.rpartition(":")
    named = sep and tail.endswith((".sln", ".slnx", ".csproj"))
    repo, solution = (Path(head), tail) if named else (Path(args.repo), None)
    instrument()
    out = run(repo, solution, args.floor, args.order)
    text = json.dumps(out, indent=1)
    print(text, flush=True)
    if args.json:
        Path(args.json).write_text(text)


if __name__ == "__main__":
    main()

"""The index against a fair compile floor (issue 16), robust to a busy machine:

    python bench/fair_floor.py CHECKOUT[:SOLUTION] ... [--rounds N] [--json FILE]

Per round and repository, three fresh workers, one after the other: the floor as loaded (nullable analysis
on), the fair floor (the index's compilation options: nullable analysis off) and the index. Each reports
wall seconds and the worker's own CPU seconds (user + system of the worker process, from /proc; the
MSBuild build host, a child, is left out of all three alike). On a machine shared with other work, wall
time follows the neighbours; CPU time follows the work, so the CPU ratio is the figure to read.

--without-walk adds a fourth worker per round: the index with the walk switched off (ROSLYNMAP_PROFILE=nowalk:
every document compiled and its diagnostics written, no symbols, references or facts), which bounds from below
what any index writing the same files and diagnostics costs against the floor.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def cpu_seconds(pid: int | None) -> float | None:
    """utime + stime of a live process, in seconds."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one(repo: Path, solution: str | None, op: str, extra: dict[str, Any],
        env: dict[str, str] | None = None) -> dict[str, Any]:
    from roslynmap.roslyn.client import WorkerClient
    from roslynmap.roslyn.discovery import find_solution
    from roslynmap.store.repo import inspect_repo
    from run import peak_rss_mb

    info = inspect_repo(repo)
    saved = {key: os.environ.get(key) for key in env or {}}
    os.environ.update(env or {})  # the worker (started at the first request) inherits it; put back after
    client = WorkerClient()
    try:
        client.request({"op": "ping"})  # the worker has started: its CPU from here on is the request's
        cpu0 = cpu_seconds(client.pid)
        started = time.perf_counter()
        result = client.request({"op": op, "repo_root": str(info.root),
                                 "solution": str(find_solution(info.root, solution)), **extra})
        wall = time.perf_counter() - started
        cpu1 = cpu_seconds(client.pid)
        rss = peak_rss_mb(client.pid)
    finally:
        client.close()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    cpu = round(cpu1 - cpu0, 1) if cpu0 is not None and cpu1 is not None else None
    bind_ms = (result.get("floor") or {}).get("ms")
    return {"wall_s": round(wall, 1), "cpu_s": cpu, "peak_rss_mb": rss, "bind_ms": bind_ms}


def best(runs: list[dict[str, Any]], key: str) -> float:
    return float(min(r[key] for r in runs if r[key] is not None))


def main() -> None:
    from roslynmap.store.repo import inspect_repo
    from run import machine

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repos", nargs="+")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json")
    parser.add_argument("--no-loaded-floor", action="store_true",
                        help="skip the floor as loaded (nullable analysis on): only the fair floor and the index")
    parser.add_argument("--without-walk", action="store_true",
                        help="also run the index with the walk switched off (ROSLYNMAP_PROFILE=nowalk)")
    args = parser.parse_args()
    os.environ["ROSLYNMAP_HOME"] = tempfile.mkdtemp(prefix="roslynmap-floor-")
    out: dict[str, Any] = {"machine": machine(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                           "repos": {}}
    for spec in args.repos:
        head, sep, tail = spec.rpartition(":")
        named = sep and tail.endswith((".sln", ".slnx", ".csproj"))
        repo, solution = (Path(head), tail) if named else (Path(spec), None)
        info = inspect_repo(repo)
        rows: dict[str, list[dict[str, Any]]] = {"floor": [], "fair_floor": [], "index": [], "index_without_walk": []}
        for _ in range(args.rounds):
            if not args.no_loaded_floor:
                rows["floor"].append(one(repo, solution, "compile_floor", {}))
            rows["fair_floor"].append(one(repo, solution, "compile_floor", {"options": "indexed"}))
            target = Path(os.environ["ROSLYNMAP_HOME"]) / f"{repo.name}-{time.time_ns()}.db"
            rows["index"].append(one(repo, solution, "index", {"out_path": str(target), "meta": {
                "repo_id": info.repo_id, "commit": info.commit}}))
            if args.without_walk:
                bare = Path(os.environ["ROSLYNMAP_HOME"]) / f"{repo.name}-{time.time_ns()}-bare.db"
                rows["index_without_walk"].append(one(repo, solution, "index", {"out_path": str(bare), "meta": {
                    "repo_id": info.repo_id, "commit": info.commit}}, {"ROSLYNMAP_PROFILE": "nowalk"}))
            print(f"[floor] {repo.name}: {json.dumps(rows)}", flush=True)

        summary: dict[str, Any] = {k: {"wall_s": best(v, "wall_s"), "cpu_s": best(v, "cpu_s")}
                                   for k, v in rows.items() if v}
        for key in ("wall_s", "cpu_s"):
            if "floor" in summary:
                summary[f"ratio_{key}"] = round(summary["index"][key] / summary["floor"][key], 2)
            summary[f"fair_ratio_{key}"] = round(summary["index"][key] / summary["fair_floor"][key], 2)
            if "index_without_walk" in summary:
                summary[f"without_walk_ratio_{key}"] = round(
                    summary["index_without_walk"][key] / summary["fair_floor"][key], 2)
        summary["runs"] = rows
        out["repos"][repo.name] = summary
        print(f"[floor] {repo.name}: {json.dumps({k: v for k, v in summary.items() if k != 'runs'})}", flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

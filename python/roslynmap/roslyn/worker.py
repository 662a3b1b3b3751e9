"""The indexer worker: `python -m roslynmap.roslyn.worker --in FD --out FD`.

Hosts CoreCLR, opens solutions with MSBuildWorkspace through the bridge, and writes baselines.
It speaks only over the two inherited pipe descriptors: its stdout and stderr (where MSBuild,
analyzers and .NET's Console write) are the log file the parent gave it. It exits when the parent
closes the pipe or after an idle timeout.
"""

from __future__ import annotations

import argparse
import select
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from roslynmap import __version__
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.kinds import merge_semantic_levels
from roslynmap.roslyn.appsettings import definition_facts
from roslynmap.roslyn.hosting import load_bridge
from roslynmap.roslyn.protocol import read_frame, write_frame
from roslynmap.store.writer import BaselineWriter

Emit = Callable[[dict[str, Any]], None]
BATCH_DOCUMENTS = 64
RESTORE_TIMEOUT_S = 600


class Worker:
    def __init__(self) -> None:
        self._session_type: Any = None
        self._sessions: dict[str, Any] = {}

    def _bridge(self) -> Any:
        if self._session_type is None:
            self._session_type = load_bridge()
        return self._session_type

    def _open(self, repo_root: str, solution: str, fresh: bool) -> Any:
        """A loaded solution; reused across requests unless `fresh` (extraction consumes a session)."""
        key = f"{repo_root}|{solution}"
        session = self._sessions.pop(key, None)
        if session is not None and fresh:
            session.Dispose()
            session = None
        if session is None:
            session = self._bridge().Open(repo_root, solution)
        self._sessions[key] = session
        return session

    def handle(self, request: dict[str, Any], emit: Emit) -> dict[str, Any]:
        op = request.get("op")
        if op == "index":
            return self.index(request, emit)
        if op == "compile_floor":
            session = self._open(request["repo_root"], request["solution"], fresh=True)
            return {"describe": orjson.loads(session.Describe()), "floor": orjson.loads(session.CompileFloor())}
        if op == "find_references":
            session = self._open(request["repo_root"], request["solution"], fresh=False)
            return dict(orjson.loads(session.FindReferences(request["symbol_id"], request["project"])))
        if op == "ping":
            return {"pong": True}
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"unknown worker op {op!r}")

    def index(self, request: dict[str, Any], emit: Emit) -> dict[str, Any]:
        started = time.perf_counter()
        solution = request["solution"]
        if request.get("restore"):
            emit({"event": "progress", "phase": "restore", "done": 0, "total": 1})
            _restore(solution)
        emit({"event": "progress", "phase": "load", "done": 0, "total": 1})
        session = self._open(request["repo_root"], solution, fresh=True)
        described = orjson.loads(session.Describe())
        if not described["projects"]:
            reasons = "; ".join(described.get("workspace_diagnostics", [])[:3]) or "no C# project in it"
            raise RoslynMapError(
                ErrorCode.COMPILATION_FAILED,
                f"The solution {described.get('solution') or solution} loaded no projects: {reasons}",
                "Check that the projects it lists exist and are C# projects, or pass solution_path to a .csproj.",
            )
        total_docs = sum(p.get("documents", 0) for p in described["projects"])
        writer = BaselineWriter(Path(request["out_path"]))
        try:
            writer.add_projects(described["projects"])
            done = 0
            counts = {"symbols": 0, "references": 0, "files": 0, "unresolved_references": 0, "facts": 0}
            emit({"event": "progress", "phase": "extract", "done": 0, "total": total_docs})
            while (raw := session.NextBatch(BATCH_DOCUMENTS)) is not None:
                batch = orjson.loads(str(raw))
                writer.add_batch(batch)
                done += len(batch.get("files", ()))
                counts["symbols"] += len(batch.get("symbols", ()))
                counts["references"] += len(batch.get("refs", ()))
                counts["unresolved_references"] += sum(1 for r in batch.get("refs", ()) if r[0] is None)
                counts["files"] += len(batch.get("files", ()))
                counts["facts"] += len(batch.get("facts", ()))
                emit({"event": "progress", "phase": "extract", "done": done, "total": total_docs})
            definitions = definition_facts(Path(request["repo_root"]))
            writer.add_batch({"facts": definitions})
            counts["facts"] += len(definitions)
            results = orjson.loads(session.Summary())["projects"]
            writer.set_project_results(results)
            level = merge_semantic_levels([r["semantic_level"] for r in results])
            elapsed = round(time.perf_counter() - started, 3)
            meta = {
                **request.get("meta", {}),
                "solution": described.get("solution"),
                "roslyn_version": described.get("roslyn_version"),
                "roslynmap_version": __version__,
                "semantic_level": level,
                "counts": {**counts, "projects": len(described["projects"])},
                "load_ms": described.get("load_ms"),
                "index_seconds": elapsed,
                "workspace_diagnostics": described.get("workspace_diagnostics", []),
                "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
            writer.finish(meta)
            writer.publish()
        except BaseException:
            writer.abandon()
            raise
        return {"meta": meta}


def _restore(solution: str) -> None:
    try:
        done = subprocess.run(
            ["dotnet", "restore", solution], capture_output=True, text=True, timeout=RESTORE_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise RoslynMapError(
            ErrorCode.COMPILATION_FAILED,
            f"`dotnet restore` did not finish within {RESTORE_TIMEOUT_S} s.",
            "Run `dotnet restore` yourself, then index without --restore.",
        ) from exc
    sys.stdout.write(done.stdout + done.stderr)
    if done.returncode != 0:
        tail = [line for line in done.stdout.splitlines() if "error" in line.lower()][:3]
        raise RoslynMapError(
            ErrorCode.COMPILATION_FAILED,
            f"`dotnet restore` failed (exit {done.returncode}): {' | '.join(tail)}",
            "Fix the restore errors (package sources, versions), then index again.",
        )


def serve(in_fd: int, out_fd: int, idle_timeout: float) -> None:
    worker = Worker()

    def emit(message: dict[str, Any]) -> None:
        write_frame(out_fd, message)

    while True:
        ready, _, _ = select.select([in_fd], [], [], idle_timeout)
        if not ready:
            return
        request = read_frame(in_fd)
        if request is None or request.get("op") == "shutdown":
            return
        try:
            result = worker.handle(request, emit)
            emit({"event": "result", "ok": True, "result": result})
        except RoslynMapError as exc:
            emit({"event": "result", "ok": False, "error": exc.to_dict()})
        except Exception as exc:  # the worker must answer, whatever .NET threw
            traceback.print_exc()
            sys.stdout.flush()
            emit({"event": "result", "ok": False, "error": {
                "code": ErrorCode.COMPILATION_FAILED.value, "message": f"{type(exc).__name__}: {exc}"[:2000],
                "hint": "See the worker log for the full trace.", "retryable": False}})


def main() -> None:
    parser = argparse.ArgumentParser(prog="roslynmap-worker")
    parser.add_argument("--in", dest="in_fd", type=int, required=True)
    parser.add_argument("--out", dest="out_fd", type=int, required=True)
    parser.add_argument("--idle-timeout", type=float, default=600.0)
    args = parser.parse_args()
    serve(args.in_fd, args.out_fd, args.idle_timeout)


if __name__ == "__main__":
    main()

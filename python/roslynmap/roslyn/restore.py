"""`dotnet restore` for an index run: the whole solution at once, else project by project.

One project NuGet or MSBuild cannot restore (an unknown SDK, a workload, a package no feed serves) fails a
solution restore for every project. So when the solution restore fails, each project is restored on its
own and its outcome reported: `restored`, `failed` (with its first error lines) or `skipped` (no time left).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from roslynmap.model import settings

Emit = Callable[[dict[str, Any]], None]
TIMEOUT_ENV = settings.RESTORE_TIMEOUT_SECONDS  # for the whole restore, solution and per-project attempts together
ERROR_LINES = 3
_BRACKETED_PROJECT = re.compile(r"\s*\[[^\]]*\]$")
# We restore to bind references, not to ship: a repository's warnings-as-errors policy must not turn NuGet's
# "version X not found, Y used" (NU1603) into a failed restore (seen on eShop and jellyfin: most projects
# failed on it), and a vulnerability audit needs data a build machine may not reach.
ANALYSIS_PROPERTIES = ("-p:TreatWarningsAsErrors=false", "-p:WarningsAsErrors=", "-p:NuGetAudit=false")


def restore(solution: str, repo_root: Path, emit: Emit, cwd: Path | None = None) -> dict[str, Any]:
    """{"status": "restored"|"partial"|"failed", "mode": "solution"|"per_project", "message",
    "projects": [{"path", "status", "errors"}] (per-project mode only), "seconds"}.
    `dotnet` runs in `cwd` when given (away from a global.json pin it cannot meet: sdkpin.py)."""
    started = time.monotonic()
    budget = _timeout()
    emit({"event": "progress", "phase": "restore", "done": 0, "total": 1})
    target = repo_root.resolve() / solution
    whole = _run(str(target), budget, cwd)
    if whole["status"] == "restored":
        return _result("restored", "solution", "dotnet restore succeeded.", [], started)
    projects = _solution_projects(target, repo_root, cwd)
    if not projects:  # a single project, or a solution we cannot list: its own outcome is the answer
        summary = f"dotnet restore failed: {' | '.join(whole['errors']) or 'no error text'}"
        return _result("failed", "solution", summary, [], started)
    outcomes = []
    for i, project in enumerate(projects):
        emit({"event": "progress", "phase": "restore", "done": i, "total": len(projects)})
        left = budget - (time.monotonic() - started)
        outcome = _run(str(repo_root.resolve() / project), left, cwd) if left > 1 else {"status": "skipped", "errors": [
            f"not tried: the restore time limit ({budget:.0f} s, {TIMEOUT_ENV}) was used up"]}
        outcomes.append({"path": project, **outcome})
    emit({"event": "progress", "phase": "restore", "done": len(projects), "total": len(projects)})
    ok = [o for o in outcomes if o["status"] == "restored"]
    bad = [o for o in outcomes if o["status"] != "restored"]
    status = "restored" if not bad else "partial" if ok else "failed"
    message = (f"dotnet restore of the solution failed; restored project by project: {len(ok)} of "
               f"{len(outcomes)} restored")
    if bad:
        message += "; not restored: " + "; ".join(
            f"{o['path']} ({o['errors'][0] if o['errors'] else o['status']})" for o in bad[:5])
    return _result(status, "per_project", message + ".", outcomes, started)


def _result(status: str, mode: str, message: str, projects: list[dict[str, Any]], started: float) -> dict[str, Any]:
    return {"status": status, "mode": mode, "message": message, "projects": projects,
            "seconds": round(time.monotonic() - started, 3)}


def _timeout() -> float:
    return settings.current().restore_timeout_s


def _run(target: str, timeout: float, cwd: Path | None) -> dict[str, Any]:
    """One `dotnet restore`; its output goes to the worker log."""
    try:
        done = subprocess.run(["dotnet", "restore", target, *ANALYSIS_PROPERTIES], capture_output=True, text=True,
                              timeout=timeout, check=False, stdin=subprocess.DEVNULL, cwd=cwd)
    except subprocess.TimeoutExpired:
        return {"status": "failed", "errors": [f"dotnet restore did not finish within {timeout:.0f} s"]}
    output = done.stdout + done.stderr
    sys.stdout.write(output)
    sys.stdout.flush()
    if done.returncode == 0:
        return {"status": "restored", "errors": []}
    return {"status": "failed", "errors": first_errors(output) or [f"dotnet restore exited with {done.returncode}"]}


def first_errors(output: str) -> list[str]:
    """The first distinct error lines of MSBuild/NuGet output (`... error NU1101: ...`)."""
    seen: list[str] = []
    for line in output.splitlines():
        lower = f" {line.strip().lower()} "
        if " error " not in lower and not lower.startswith(" error"):
            continue
        # "/path/x.targets(38,5): error NETSDK1147: text [/repo/p.csproj]" -> "error NETSDK1147: text"
        text = _BRACKETED_PROJECT.sub("", line.strip()[lower.index("error") - 1:]).strip()
        if text not in seen:
            seen.append(text[:400])
        if len(seen) == ERROR_LINES:
            break
    return seen


def _solution_projects(solution: Path, repo_root: Path, cwd: Path | None) -> list[str]:
    """The projects a .sln/.slnx names (repo-relative, as listed, existing or not); [] for a project file."""
    if solution.suffix.lower() not in (".sln", ".slnx"):
        return []
    try:
        done = subprocess.run(["dotnet", "sln", str(solution), "list"], capture_output=True, text=True, timeout=120,
                              check=False, stdin=subprocess.DEVNULL, cwd=cwd)
    except subprocess.TimeoutExpired:
        return []
    if done.returncode != 0:
        return []
    folder = solution.resolve().parent
    root = repo_root.resolve()
    out = []
    for line in done.stdout.splitlines():
        text = line.strip().replace("\\", "/")
        if not text.lower().endswith("proj"):
            continue
        path = Path(os.path.normpath(folder / text))
        try:
            out.append(path.relative_to(root).as_posix())
        except ValueError:
            out.append(path.as_posix())
    return out

"""repo_status and index_ensure_baseline."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from roslynmap.mcp.output import Guidance, RankedList, ToolOutput
from roslynmap.mcp.registry import BaseParams, tool
from roslynmap.query.status import repo_status
from roslynmap.workspace.baselines import ensure_baseline


class RepoStatusParams(BaseParams):
    pass


@tool("repo_status", RepoStatusParams)
def repo_status_tool(params: RepoStatusParams, repo_path: str) -> ToolOutput:
    """Use first in a new repository: repo id, HEAD commit, branch, clean or dirty, whether a baseline
    exists for HEAD (if not, call index_ensure_baseline), and the baselines already built."""
    status = repo_status(repo_path)
    state = "clean" if status["clean"] else f"dirty ({status['dirty_file_count']} changed files)"
    has = "has a baseline" if status["baseline_for_head"] else "has NO baseline yet"
    actions = [] if status["baseline_for_head"] else [
        {"tool": "index_ensure_baseline", "why": "build the index for HEAD", "args": {}}
    ]
    return ToolOutput(
        answer=f"{status['root']} at {status['head_commit'][:12]} ({status['branch'] or 'detached'}), {state}; "
        f"HEAD {has}.",
        data=status,
        next_actions=actions,
        baseline_commit=status["head_commit"] if status["baseline_for_head"] else None,
    )


class EnsureParams(BaseParams):
    solution_path: str | None = Field(
        default=None, description="Repo-relative .slnx/.sln/.csproj; auto-discovered when omitted."
    )
    force: bool = Field(default=False, description="Rebuild even if a baseline for HEAD exists.")
    restore: bool = Field(default=False, description="Run `dotnet restore` first (with a timeout).")


def project_diagnostics(projects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for p in projects:
        item = {
            "name": p["name"],
            "path": p["path"],
            "compiled": p["error_count"] == 0 and not p["load_errors"],
            "semantic_level": p["semantic_level"],
            "target_framework": p["target_framework"],
            "error_count": p["error_count"],
            "missing_reference_errors": p["missing_reference_errors"],
            "first_errors": p["first_errors"],
            "symbol_count": p["symbol_count"],
            "reference_count": p["ref_count"],
            "restored": p["restored"],
        }
        if p["load_errors"]:
            item["load_errors"] = p["load_errors"][:5]
        if len(p["target_frameworks"]) > 1:
            item["note"] = f"multi-targeted {p['target_frameworks']}; indexed for {p['target_framework']}"
        if not p["restored"]:
            item["hint"] = "Not restored (no obj/project.assets.json): index again with restore=true " \
                           "(CLI: --restore) to bind package references."
        out.append(item)
    return out


@tool("index_ensure_baseline", EnsureParams, read_only=False, slow=True)
def ensure_tool(params: EnsureParams, repo_path: str) -> ToolOutput:
    """Use before any query in a repository without a baseline for HEAD (repo_status tells): compiles
    the solution with Roslyn once (seconds to minutes) and stores every symbol and reference; returns
    at once when the baseline exists. Reports counts, semantic_level (full / partial / syntax_only)
    and per-project diagnostics: compiled?, target framework, errors, restore state."""
    result = ensure_baseline(
        repo_path, params.solution_path, force=params.force, restore=params.restore
    )
    meta = result.meta
    counts = meta.get("counts", {})
    diagnostics = project_diagnostics(result.projects)
    level = meta.get("semantic_level", "syntax_only")
    verb = "Built" if result.built else "Baseline already exists"
    answer = (
        f"{verb} for {result.repo.commit[:12]}: {counts.get('symbols', 0)} symbols, "
        f"{counts.get('references', 0)} references in {counts.get('files', 0)} files, "
        f"{counts.get('projects', 0)} projects; semantic level {level}."
    )
    if result.built:
        answer += f" Took {meta.get('index_seconds')} s."
    degraded = [d for d in diagnostics if d["semantic_level"] != "full"]
    guidance = None
    if degraded:
        names = ", ".join(f"{d['name']} ({d['semantic_level']})" for d in degraded[:5])
        unrestored = any(not d["restored"] for d in degraded)
        guidance = Guidance(
            "warning",
            f"Not every project compiled cleanly: {names}. Answers about them may miss references."
            + (" Some projects are not restored: call again with restore=true." if unrestored else ""),
        )
    data = {
        "built": result.built,
        "from_cache": False,
        "commit": result.repo.commit,
        "solution": meta.get("solution"),
        "semantic_level": level,
        "counts": counts,
        "index_seconds": meta.get("index_seconds"),
        "created_at": meta.get("created_at"),
        "toolchain": {k: meta.get(k) for k in ("roslyn_version", "sdk_version", "roslynmap_version")},
        "workspace_diagnostics": meta.get("workspace_diagnostics", [])[:10],
    }
    return ToolOutput(
        answer=answer,
        data=data,
        ranked=RankedList("projects", diagnostics, len(diagnostics), scope_param=None,
                          elidable=("first_errors", "load_errors")),
        guidance=guidance,
        semantic_level=level,
        baseline_commit=result.repo.commit,
        next_actions=[{"tool": "symbols_search", "why": "find a symbol by name", "args": {"query": "Service"}}],
    )

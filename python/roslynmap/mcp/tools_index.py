"""repo_status, index_ensure_baseline, index_list_baselines and index_cleanup."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from roslynmap.mcp.output import Guidance, RankedList, ToolOutput
from roslynmap.mcp.registry import BaseParams, tool
from roslynmap.mcp.tools_symbols import clamp
from roslynmap.store.cache import CacheRoot, check_cache_dir, configured_cache_dir
from roslynmap.store.repo import inspect_repo
from roslynmap.workspace.baselines import cleanup_baselines, describe_baselines, ensure_baseline
from roslynmap.workspace.diagnostics import evidence_text, project_diagnostics
from roslynmap.workspace.status import repo_status


class RepoStatusParams(BaseParams):
    pass


STATUS_PROJECTS_SHOWN = 10


@tool("repo_status", RepoStatusParams)
def repo_status_tool(params: RepoStatusParams, repo_path: str) -> ToolOutput:
    """Use first in a repository: HEAD, dirty files, whether HEAD has a baseline (else index_ensure_baseline),
    its semantic level."""
    status = repo_status(repo_path)
    state = "clean" if status["clean"] else f"dirty ({status['dirty_file_count']} changed files)"
    has = "has a baseline" if status["baseline_for_head"] else "has NO baseline yet"
    head = status.get("head_baseline")
    if head:
        has += f" (semantic level {head['semantic_level']}"
        has += f": {evidence_text(head['level_evidence'])})" if head.get("level_evidence") else ")"
    actions = [] if status["baseline_for_head"] else [
        {"tool": "index_ensure_baseline", "why": "build the index for HEAD", "args": {}}
    ]
    if head and len(head.get("projects") or []) > STATUS_PROJECTS_SHOWN:
        # 49 projects' levels crowd out the answer (SimplCommerce): the ones below full (the first few), and the count.
        below = [p for p in head["projects"] if p.get("semantic_level") != "full"]
        status = {**status, "head_baseline": {**{k: v for k, v in head.items() if k != "projects"},
                                              "projects_below_full": below[:STATUS_PROJECTS_SHOWN],
                                              "below_full_count": len(below),
                                              "project_count": len(head["projects"])}}
    return ToolOutput(
        answer=f"{status['root']} at {status['head_commit'][:12]} ({status['branch'] or 'detached'}), {state}; "
        f"HEAD {has}.",
        data=status,
        next_actions=actions,
        baseline_commit=status["head_commit"] if status["baseline_for_head"] else None,
    )


class EnsureParams(BaseParams):
    solution_path: str | None = None  # default: discovered
    force: bool = False  # rebuild even if a baseline exists
    restore: bool | None = Field(
        default=None, description="true: restore first; false: never; default: when needed.")
    framework: str | None = Field(
        default=None, pattern=r"^[A-Za-z][A-Za-z0-9.\-]{0,63}$",
        description="For multi-targeted projects, e.g. \"net8.0\".",
    )


def server_cache_dir() -> CacheRoot | None:
    """The shared cache the server pulls from: ROSLYNMAP_CACHE_DIR (`roslynmap serve --cache-dir` sets it)."""
    value = configured_cache_dir()
    return check_cache_dir(value, writable=False) if value else None


RESTORE_PROJECTS_SHOWN = 10


def restore_summary(restore: dict[str, Any] | None) -> dict[str, Any] | None:
    """What restore did, sized for an answer: the projects that did not restore (the first 10), and the errors
    they share, most common first (SimplCommerce: 49 projects failing on the same two missing packages)."""
    if not restore or not restore.get("projects"):
        return restore
    failed = [p for p in restore["projects"] if p.get("status") != "restored"]
    shared: dict[str, int] = {}
    for project in failed:
        for error in project.get("errors") or []:
            shared[error] = shared.get(error, 0) + 1
    out = {k: v for k, v in restore.items() if k != "projects"}
    out["projects"] = [{"path": p["path"], "status": p["status"], "errors": (p.get("errors") or [])[:1]}
                       for p in failed[:RESTORE_PROJECTS_SHOWN]]
    out["counts"] = {"projects": len(restore["projects"]), "not_restored": len(failed)}
    out["errors"] = [{"error": e, "projects": n} for e, n in sorted(shared.items(), key=lambda en: -en[1])[:5]]
    return out


@tool("index_ensure_baseline", EnsureParams, read_only=False, slow=True)
def ensure_tool(params: EnsureParams, repo_path: str) -> ToolOutput:
    """Use when HEAD has no baseline: pulls it from the shared cache or compiles the solution (seconds to
    minutes)."""
    cache_dir = server_cache_dir()
    result = ensure_baseline(
        repo_path, params.solution_path, force=params.force, cache_dir=cache_dir,
        restore="auto" if params.restore is None else params.restore,
        framework=params.framework,
    )
    meta = result.meta
    counts = meta.get("counts", {})
    diagnostics = project_diagnostics(result.projects, meta.get("restore"))
    level = meta.get("semantic_level", "syntax_only")
    verb = {"local": "Baseline already exists", "cache": "Pulled from the shared cache", "built": "Built"}
    answer = (
        f"{verb[result.source]} for {result.repo.commit[:12]}: {counts.get('symbols', 0)} symbols, "
        f"{counts.get('references', 0)} references in {counts.get('files', 0)} files, "
        f"{counts.get('projects', 0)} projects; semantic level {level}"
        + (f" ({evidence_text(meta.get('level_evidence'))})." if meta.get("level_evidence") else ".")
    )
    if result.built:
        answer += f" Took {meta.get('index_seconds')} s"
        answer += f", {result.derived_note}." if result.derived_note else "."
    elif result.from_cache:
        answer += f" Took {result.pull_seconds} s (indexed at {meta.get('created_at')})."
    degraded = [d for d in diagnostics if d["semantic_level"] != "full"]
    guidance = None
    if degraded:
        names = ", ".join(f"{d['name']} ({d['semantic_level']}: {d['level_reason']})" for d in degraded[:5])
        unrestored = meta.get("restore") is None and any(not d["restored"] and "restore=true" in d.get("hint", "")
                                                          for d in degraded)
        guidance = Guidance(
            "warning",
            f"Not every project compiled cleanly: {names}. Answers about them may miss references."
            + (" Some projects are not restored: call again with restore=true." if unrestored else ""),
        )
    data = {
        "built": result.built,
        "from_cache": result.from_cache,
        "source": result.source,
        "cache_dir": str(cache_dir) if cache_dir else None,
        "commit": result.repo.commit,
        "solution": meta.get("solution"),
        "semantic_level": level,
        "level_evidence": meta.get("level_evidence"),
        "framework_request": meta.get("framework_request"),
        "counts": counts,
        "index_seconds": meta.get("index_seconds"),
        "derived": result.derived,  # built from an ancestor commit's baseline, or why not (null: not built)
        "created_at": meta.get("created_at"),
        "toolchain": {k: meta.get(k) for k in ("roslyn_version", "sdk_version", "roslynmap_version")},
        "workspace_diagnostics": meta.get("workspace_diagnostics", [])[:10],
        "restore": restore_summary(meta.get("restore")),  # what restore did for this build (null: none ran)
    }
    return ToolOutput(
        answer=answer,
        data=data,
        ranked=RankedList("projects", diagnostics, len(diagnostics), scope_param=None, page_param=None,
                          elidable=("first_errors", "load_errors")),
        guidance=guidance,
        warnings=result.warnings,
        semantic_level=level,
        baseline_commit=result.repo.commit,
        next_actions=[{"tool": "symbols_search", "why": "find a symbol by name", "args": {"query": "Service"}}],
    )


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


class ListBaselinesParams(BaseParams):
    limit: int | None = None
    offset: int = Field(default=0, ge=0)


@tool("index_list_baselines", ListBaselinesParams)
def list_baselines_tool(params: ListBaselinesParams, repo_path: str) -> ToolOutput:
    """Use to see the baselines stored here: per commit size, level, counts, cached?, workspaces on it."""
    repo = inspect_repo(repo_path)
    cache_dir = server_cache_dir()
    baselines, warnings = describe_baselines(repo, cache_dir)
    total = sum(b["size_bytes"] for b in baselines)
    head = "HEAD has one" if any(b["is_head"] for b in baselines) else "HEAD has none (call index_ensure_baseline)"
    answer = f"{len(baselines)} local baseline(s), {_mb(total)}; {head}."
    if cache_dir is not None:
        answer += f" {sum(1 for b in baselines if b['in_cache'])} also in the shared cache."
    used = sum(1 for b in baselines if b["workspaces"])
    if used:
        answer += f" {used} used by workspaces."
    actions = []
    if len(baselines) > 3:
        actions.append({"tool": "index_cleanup", "why": "remove old baselines (HEAD's and workspaces' are kept)",
                        "args": {"keep": 3, "dry_run": True}})
    limits: dict[str, Any] = {}
    limit = clamp("max_results", params.limit, 20, 100, limits)
    page = baselines[params.offset:params.offset + limit]
    return ToolOutput(
        answer=answer,
        data={"repo_id": repo.repo_id, "head_commit": repo.commit, "cache_dir": str(cache_dir) if cache_dir else None,
              "total_bytes": total},
        ranked=RankedList("baselines", page, len(baselines), params.offset, scope_param=None, elidable=("counts",)),
        warnings=warnings,
        next_actions=actions,
        limits_applied=limits,
    )


class CleanupParams(BaseParams):
    keep: int = Field(default=3, ge=0, le=1000)  # newest kept, besides HEAD's and workspaces' (the description)
    dry_run: bool = False


@tool("index_cleanup", CleanupParams, read_only=False, destructive=True)
def cleanup_tool(params: CleanupParams, repo_path: str) -> ToolOutput:
    """Use to free disk: deletes old local baselines, keeping the newest `keep`, HEAD's and those workspaces
    use."""
    repo = inspect_repo(repo_path)
    report = cleanup_baselines(repo, params.keep, dry_run=params.dry_run)
    warnings = report.pop("warnings")
    verb = "Would remove" if params.dry_run else "Removed"
    answer = (f"{verb} {len(report['removed'])} baseline(s)"
              + (f" and {len(report['removed_temp_files'])} abandoned temp file(s)"
                 if report["removed_temp_files"] else "")
              + f", {_mb(report['bytes_freed'])}; kept {len(report['kept'])}.")
    return ToolOutput(answer=answer, data=report, warnings=warnings)

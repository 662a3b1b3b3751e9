"""workspace_create, workspace_reset, workspace_list, workspace_delete and index_refresh_overlay."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from roslynmap.mcp.context import live_repo, note_workspace, open_context
from roslynmap.mcp.output import Guidance, RankedList, ToolOutput
from roslynmap.mcp.registry import BaseParams, ListParamsMixin, tool
from roslynmap.query import diagnostics
from roslynmap.query.paths import repo_relative
from roslynmap.store.paths import baseline_path
from roslynmap.workspace import overlays, warm


class WorkspaceIdParams(BaseParams):
    workspace_id: str = Field(pattern=overlays.ID_PATTERN.pattern,
                              description="Your name for it, unique per repository.")


class CreateParams(WorkspaceIdParams):
    solution_path: str | None = None


def _refresh_action(workspace_id: str) -> dict[str, Any]:
    return {"tool": "index_refresh_overlay", "why": "index your edits into the workspace",
            "args": {"workspace_id": workspace_id}}


NEW_WORKSPACE_FIELDS = ("workspace_id", "baseline_commit", "baseline_available", "overlay_revision")


@tool("workspace_create", CreateParams, read_only=False)
def create_tool(params: CreateParams, repo_path: str) -> ToolOutput:
    """Use before editing code: creates your workspace, so queries with workspace_id include your edits.
    Idempotent."""
    repo = live_repo(repo_path)
    record, created = overlays.create(repo, params.workspace_id, params.solution_path)
    # The worker loads the solution meanwhile, so the first index_refresh_overlay is warm (workspace/warm.py).
    warm.start(repo, record.get("solution"))
    info = overlays.summary(repo, record)
    note_workspace(params.workspace_id, info["overlay_revision"])
    verb = "Created" if created else "Workspace already exists:"
    answer = f"{verb} workspace '{params.workspace_id}' on baseline {record['baseline_commit'][:12]}."
    guidance = None
    if not info["baseline_available"]:
        answer += " That commit has no baseline yet."
        guidance = Guidance("warning", "Call index_ensure_baseline before refreshing or querying this workspace.")
    # A new workspace has no edits, refreshes or staleness to report yet: its ids and whether it can be used.
    shown = info if not created else {k: info[k] for k in NEW_WORKSPACE_FIELDS}
    data = {**shown, "created": created}
    return ToolOutput(answer=answer, data=data, guidance=guidance,
                      next_actions=[_refresh_action(params.workspace_id)], baseline_commit=record["baseline_commit"])


@tool("workspace_reset", WorkspaceIdParams, read_only=False, destructive=True)
def reset_tool(params: WorkspaceIdParams, repo_path: str) -> ToolOutput:
    """Use to discard a workspace's indexed edits (after a commit or a branch switch)."""
    repo = live_repo(repo_path)
    record, warnings = overlays.reset(repo, params.workspace_id)
    warm.start(repo, record.get("solution"))
    info = overlays.summary(repo, record)
    note_workspace(params.workspace_id, info["overlay_revision"])
    return ToolOutput(answer=f"Workspace '{params.workspace_id}' reset onto baseline {record['baseline_commit'][:12]}"
                             f" (revision {info['overlay_revision']}).",
                      data=info, warnings=warnings, next_actions=[_refresh_action(params.workspace_id)],
                      baseline_commit=record["baseline_commit"])


@tool("workspace_delete", WorkspaceIdParams, read_only=False, destructive=True, idempotent=False)
def delete_tool(params: WorkspaceIdParams, repo_path: str) -> ToolOutput:
    """Use when done with a workspace: deletes its overlay (files on disk untouched)."""
    repo = live_repo(repo_path)
    record = overlays.delete(repo, params.workspace_id)
    return ToolOutput(answer=f"Deleted workspace '{params.workspace_id}'.",
                      data={"workspace_id": params.workspace_id, "baseline_commit": record["baseline_commit"],
                            "remaining": overlays.list_ids(repo.repo_id)})


class ListParams(BaseParams):
    pass


@tool("workspace_list", ListParams)
def list_tool(params: ListParams, repo_path: str) -> ToolOutput:
    """Use to see this repository's workspaces: baseline, stale?, revision, changed files."""
    repo = live_repo(repo_path)
    items = overlays.summaries(repo)
    stale = [w["workspace_id"] for w in items if w["stale"]]
    answer = f"{len(items)} workspace(s)" + (f"; stale (HEAD moved): {', '.join(stale)}" if stale else "") + "."
    return ToolOutput(answer=answer, data={"head_commit": repo.commit},
                      ranked=RankedList("workspaces", items, len(items), scope_param=None, page_param=None,
                                        elidable=("changed_files",)),
                      preview=[f"{w['workspace_id']}  rev {w['overlay_revision']}  {len(w['changed_files'])} files"
                               f"{'  STALE' if w['stale'] else ''}" for w in items])


NEW_ERRORS_SHOWN = 10  # a refresh lists the first errors its edits introduced; diagnostics_list has them all


def _introduced(repo_path: str, workspace_id: str) -> diagnostics.Diagnostics:
    """The diagnostics the workspace's edits introduced (diagnostics_list new_only), read from its overlay."""
    ctx = open_context(repo_path, workspace_id)
    return diagnostics.listing(ctx.conn, diagnostics.Filters(), since_baseline=True)


class RefreshParams(WorkspaceIdParams, ListParamsMixin):
    file_paths: list[str] | None = Field(default=None, description="Default: the files git sees changed.")


@tool("index_refresh_overlay", RefreshParams, read_only=False, slow=True)
def refresh_tool(params: RefreshParams, repo_path: str) -> ToolOutput:
    """Use after editing code, before querying with workspace_id: re-indexes the changed .cs files into the
    workspace."""
    repo = live_repo(repo_path)
    paths = [repo_relative(repo.root, p) for p in params.file_paths] if params.file_paths is not None else None
    skipped = [p for p in paths or [] if not p.endswith(".cs") or "/obj/" in f"/{p}" or "/bin/" in f"/{p}"]
    result = overlays.refresh(repo, params.workspace_id, paths)
    record = result.record
    note_workspace(params.workspace_id, result.revision)
    changed = [{"path": p, "state": s, **({"in_solution": False} if p in result.not_in_solution else {})}
               for p, s in sorted(result.changed.items())]
    answer = (f"Workspace '{params.workspace_id}' at revision {result.revision}: {len(changed)} changed file(s) "
              f"in the overlay; re-extracted {len(result.extracted)} this time"
              + (f" ({len(result.rebound)} because a declaration they use changed)" if result.rebound else "")
              + f", in {result.timing_ms.get('total', 0):.0f} ms.")
    if result.cold:
        answer += f" Loading the solution took {result.load_seconds:.1f} s (once per worker)."
    warnings = []
    if skipped:
        warnings.append(f"Only C# source files are indexed; ignored: {', '.join(skipped[:5])}.")
    if result.outside:
        warnings.append(f"Skipped {len(result.outside)} file(s) whose real path is outside the repository (a "
                        f"symlink) or not a regular file; roslynmap never reads them: {', '.join(result.outside[:5])}.")
    if result.not_in_solution:
        warnings.append(f"{len(result.not_in_solution)} file(s) belong to no project of the solution and were not "
                        f"indexed: {', '.join(result.not_in_solution[:5])}.")
    level = record.get("semantic_level")
    guidance = None
    if level and level != "full":
        guidance = Guidance("warning", f"The workspace compiles at semantic level {level}: an edit may have "
                                       "introduced errors (e.g. an unknown type); references there may be unresolved.")
    head = repo.commit
    if head != record["baseline_commit"]:
        warnings.append(f"HEAD moved to {head[:12]} since the workspace was based on "
                        f"{record['baseline_commit'][:12]}; workspace_reset rebases it.")
    data = {
        "workspace_id": params.workspace_id, "overlay_revision": result.revision,
        "baseline_commit": record["baseline_commit"], "extracted": result.extracted, "rebound": result.rebound,
        "deleted": result.deleted, "reverted": result.dropped, "semantic_level": level,
        "cold_start": result.cold,
        "baseline_available": baseline_path(repo.repo_id, record["baseline_commit"]).exists(),
    }
    # The answer says the total time; the load only when this refresh paid it (verbose meta has the phases).
    if result.cold:
        data["load_seconds"] = round(result.load_seconds, 3)
    # The question after an edit, answered here: did it break anything? (the overlay's new diagnostics)
    actions: list[dict[str, Any]] = []
    if changed:
        introduced = _introduced(repo_path, params.workspace_id)
        errors = [i for i in introduced.items if i["severity"] == "error"]
        warned = introduced.total - len(errors)
        answer += (f" The edits introduced {len(errors)} error{'s' if len(errors) != 1 else ''}"
                   + (f" and {warned} warning{'s' if warned != 1 else ''}" if warned else "") + ".")
        if errors:
            data["new_errors"] = [{k: e[k] for k in ("code", "message", "file", "line", "col")}
                                  for e in errors[:NEW_ERRORS_SHOWN]]
        if len(errors) > NEW_ERRORS_SHOWN or warned:
            actions.append({"tool": "diagnostics_list", "why": "every diagnostic your edits introduced",
                            "args": {"workspace_id": params.workspace_id, "new_only": True}})
    return ToolOutput(answer=answer, data=data,
                      ranked=RankedList("changed_files", changed, len(changed), scope_param=None, page_param=None),
                      warnings=warnings, guidance=guidance, semantic_level=level,
                      baseline_commit=record["baseline_commit"], next_actions=actions)

"""Per-project diagnostics of an index run, as `index_ensure_baseline` and `roslynmap index` report them."""

from __future__ import annotations

from typing import Any


def _restore_hint(p: dict[str, Any], restore: dict[str, Any] | None) -> str:
    """Why a project is not restored and what would fix it: never "restore again" right after a restore."""
    if p["load_errors"] and any(not e.startswith("warning: ") for e in p["load_errors"]):
        return "The project file could not be loaded (see load_errors); restore cannot fix a project file: fix it."
    if restore is None:
        return "Not restored (no obj/project.assets.json): index again with restore=true " \
               "(CLI: --restore) to bind package references."
    outcome = next((o for o in restore.get("projects", ()) if o["path"] == p["path"]), None)
    if outcome is not None and outcome["status"] != "restored":
        first = outcome["errors"][0] if outcome["errors"] else outcome["status"]
        return f"dotnet restore failed for this project: {first}. Fix that (package source, SDK, workload); " \
               "restoring again will not help until then."
    return f"Still not restored after dotnet restore ran ({restore.get('message', '')}). Check the restore errors."


def project_diagnostics(projects: list[dict[str, Any]], restore: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Per-project diagnostics; `restore` is the baseline's restore outcome (meta "restore"), None if none ran."""
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
            item["hint"] = _restore_hint(p, restore)
        out.append(item)
    return out

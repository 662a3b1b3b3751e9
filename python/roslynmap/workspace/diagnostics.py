"""Per-project diagnostics of an index run, as `index_ensure_baseline` and `roslynmap index` report them."""

from __future__ import annotations

import re
from typing import Any

from roslynmap.model.hints import non_csharp_language, non_csharp_reason
from roslynmap.model.kinds import bound_share

# The bridge's level reason of a project synthesized from a Unity project's layout (UnityLoader.cs).
UNITY_REASON = "synthesized from Unity's layout"
_MISSING_SDK = re.compile(r"SDK '([^']+)' specified could not be found")


# Target platforms whose reference packs come only with a .NET workload (not with the SDK): restore fails with
# NETSDK1147 until it is installed (IfpaMaui, a MAUI app, on a machine with no workload).
_WORKLOAD_PLATFORM = re.compile(r"^net\d+\.\d+-(android|ios|maccatalyst|tvos|macos|tizen)", re.IGNORECASE)


def _workload_note(p: dict[str, Any]) -> str:
    if not _WORKLOAD_PLATFORM.match(str(p.get("target_framework") or "")):
        return ""
    return (f" It targets {p['target_framework']}, a platform whose reference packs come with a .NET workload, not "
            "the SDK: `dotnet workload list` shows what is installed and `dotnet workload restore` installs what the "
            "project needs; without it restore fails (NETSDK1147) and calls into the platform and its packages stay "
            "unbound.")


def _restore_hint(p: dict[str, Any], restore: dict[str, Any] | None) -> str:
    """Why a project is not restored and what would fix it: never "restore again" right after a restore."""
    errors = [e for e in p["load_errors"] or [] if not e.startswith("warning: ")]
    if any("EnableWindowsTargeting" in e for e in errors):
        # NETSDK1100 (Sonarr's WinForms tray app): nothing is wrong with the project; this machine is not Windows.
        return ("The project targets Windows (a -windows target framework), which the .NET SDK loads off Windows only "
                "with EnableWindowsTargeting=true: set that property (in the project or a Directory.Build.props) to "
                "index it here, or index on Windows; its files are indexed from their syntax meanwhile.")
    if sdk := next((m.group(1) for e in errors if (m := _MISSING_SDK.search(e))), None):
        # Practical.CleanArchitecture's AppHost: the file is fine; its MSBuild SDK, a NuGet package, is not here.
        return (f"The project's MSBuild SDK '{sdk}' could not be found: it comes as a NuGet package (or a workload) "
                "that no configured feed served; make it available (a feed, the SDK's version in global.json's "
                "msbuild-sdks) and index again. Its files are indexed from their syntax meanwhile.")
    if language := non_csharp_language(errors):
        # Avalonia.Samples' F# MusicStore: the file loaded fine; it is in a language roslynmap does not index.
        return (f"{non_csharp_reason(language)}; restoring or fixing it changes nothing here, and C# code only it "
                "calls has no reference.")
    if errors:
        return "The project file could not be loaded (see load_errors); restore cannot fix a project file: fix it."
    if restore is None:
        return f"Not restored (no {p.get('assets_file') or 'obj/project.assets.json'}): index again with " \
               "restore=true (CLI: --restore) to bind package references." + _workload_note(p)
    outcome = next((o for o in restore.get("projects", ()) if o["path"] == p["path"]), None)
    if outcome is not None and outcome["status"] != "restored":
        first = outcome["errors"][0] if outcome["errors"] else outcome["status"]
        return f"dotnet restore failed for this project: {first}. Fix that (package source, SDK, workload); " \
               "restoring again will not help until then."
    return f"Still not restored after dotnet restore ran ({restore.get('message', '')}). Check the restore errors."


def project_diagnostics(projects: list[dict[str, Any]], restore: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Per project: the level with its evidence (bound share, missing-reference errors, why), the
    framework indexed and those skipped, restore state (with `restore`, the baseline's restore outcome,
    meta "restore", None if none ran), compile errors and counts."""
    out = []
    for p in projects:
        resolved, unresolved = int(p.get("resolved_refs") or 0), int(p.get("unresolved_refs") or 0)
        item = {
            "name": p["name"],
            "path": p["path"],
            "compiled": p["error_count"] == 0 and p["semantic_level"] != "syntax_only",
            "semantic_level": p["semantic_level"],
            "level_reason": p.get("level_reason"),
            "bound_share": bound_share(resolved, unresolved),
            "resolved_references": resolved,
            "unresolved_references": unresolved,
            "target_framework": p["target_framework"],
            "error_count": p["error_count"],
            "missing_reference_errors": p["missing_reference_errors"],
            "first_errors": p["first_errors"],
            "symbol_count": p["symbol_count"],
            "reference_count": p["ref_count"],
            "restored": p["restored"],
        }
        if p.get("assets_file"):
            item["assets_file"] = p["assets_file"]
        if p["load_errors"]:
            item["load_errors"] = p["load_errors"][:5]
        if len(p["target_frameworks"]) > 1:
            item["target_frameworks"] = p["target_frameworks"]
            item["framework_choice"] = p.get("framework_choice")
            item["skipped_frameworks"] = p.get("skipped_frameworks") or []
            how = "as requested" if p.get("framework_choice") == "requested" else "chosen automatically"
            item["note"] = f"multi-targeted {p['target_frameworks']}; indexed for {p['target_framework']} ({how})"
        if not p["restored"] and p["semantic_level"] != "full":
            item["hint"] = _restore_hint(p, restore)
        elif UNITY_REASON in (p.get("level_reason") or ""):
            item["hint"] = ("Unity's own assemblies come with the Unity editor, not NuGet: open the project in Unity "
                            "once (Assets > Open C# Project writes its .csproj and .sln files) and index that .sln "
                            "(solution_path) to bind Unity's types; meanwhile calls among the game's own classes bind.")
        out.append(item)
    return out


def evidence_text(evidence: dict[str, Any] | None) -> str:
    """`94.2 % of 1,234 references bound, 3 missing-reference errors` (empty without evidence)."""
    if not evidence:
        return ""
    share = evidence.get("bound_share")
    total = int(evidence.get("resolved_references", 0)) + int(evidence.get("unresolved_references", 0))
    bound = "no references" if share is None else f"{share * 100:.1f} % of {total:,} references bound"
    return f"{bound}, {evidence.get('missing_reference_errors', 0)} missing-reference errors"

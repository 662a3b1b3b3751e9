"""index_ensure_baseline's `restore`, sized for an answer (SimplCommerce: 49 projects failing on the same two
missing packages made the rest of the answer be cut): the projects that did not restore, at most 10, with their
first error, and the errors they share, most common first."""

from __future__ import annotations

from roslynmap.mcp.tools_index import restore_summary

MISSING = "error NU1101: Unable to find package cloudscribe.Web.Pagination."
CONTRACTS = "error NU1101: Unable to find package MediatR.Contracts."


def test_failed_projects_come_with_the_errors_they_share() -> None:
    projects = [{"path": f"src/M{i:02}/M{i:02}.csproj", "status": "failed", "errors": [MISSING, CONTRACTS]}
                for i in range(12)]
    projects.insert(1, {"path": "src/Ok/Ok.csproj", "status": "restored", "errors": []})
    projects.append({"path": "src/Pdf/Pdf.csproj", "status": "failed", "errors": ["error NU1101: DinkToPdf."]})
    summary = restore_summary({"status": "partial", "mode": "per_project", "message": "m", "seconds": 3.5,
                               "projects": projects})
    assert summary is not None
    assert summary["counts"] == {"projects": 14, "not_restored": 13}
    assert [p["path"] for p in summary["projects"]] == [f"src/M{i:02}/M{i:02}.csproj" for i in range(10)]
    assert summary["projects"][0] == {"path": "src/M00/M00.csproj", "status": "failed", "errors": [MISSING]}
    assert summary["errors"] == [{"error": MISSING, "projects": 12}, {"error": CONTRACTS, "projects": 12},
                                 {"error": "error NU1101: DinkToPdf.", "projects": 1}]
    assert (summary["status"], summary["mode"], summary["message"], summary["seconds"]) == (
        "partial", "per_project", "m", 3.5)


def test_a_solution_restore_has_nothing_to_sum_up() -> None:
    whole = {"status": "restored", "mode": "solution", "message": "dotnet restore succeeded.", "projects": []}
    assert restore_summary(whole) == whole
    assert restore_summary(None) is None


def test_a_windows_project_off_windows_is_told_how_to_load() -> None:
    """Sonarr's WinForms tray app (net10.0-windows): NETSDK1100 is no broken project file, and restoring cannot fix
    it; the hint says which property loads it here."""
    from roslynmap.workspace.diagnostics import project_diagnostics

    row = {"name": "Sonarr", "path": "src/NzbDrone/Sonarr.csproj", "semantic_level": "syntax_only", "error_count": 3,
           "resolved_refs": 1, "unresolved_refs": 3, "target_framework": "net10.0-windows",
           "missing_reference_errors": 3, "first_errors": [], "symbol_count": 25, "ref_count": 166, "restored": False,
           "target_frameworks": ["net10.0-windows"], "load_errors": [
               "error NETSDK1100: To build a project targeting Windows on this operating system, set the "
               "EnableWindowsTargeting property to true."]}
    [item] = project_diagnostics([row])
    assert item["hint"].startswith("The project targets Windows (a -windows target framework), which the .NET SDK "
                                   "loads off Windows only with EnableWindowsTargeting=true")


def test_a_missing_msbuild_sdk_is_named() -> None:
    """Practical.CleanArchitecture's AppHost (`Sdk="Aspire.AppHost.Sdk/13.4.2"`, not served here): the project file is
    fine, the SDK package is missing."""
    from roslynmap.workspace.diagnostics import project_diagnostics

    row = {"name": "AppHost", "path": "src/AppHost/AppHost.csproj", "semantic_level": "syntax_only", "error_count": 1,
           "resolved_refs": 0, "unresolved_refs": 2, "target_framework": "", "missing_reference_errors": 1,
           "first_errors": [], "symbol_count": 3, "ref_count": 2, "restored": False, "target_frameworks": [],
           "load_errors": ["Msbuild failed when processing the file 'src/AppHost/AppHost.csproj' with message: The SDK "
                           "'Aspire.AppHost.Sdk/13.4.2' specified could not be found."]}
    [item] = project_diagnostics([row])
    assert item["hint"].startswith("The project's MSBuild SDK 'Aspire.AppHost.Sdk/13.4.2' could not be found: it comes "
                                   "as a NuGet package")


def test_a_project_in_another_language_is_not_told_to_fix_its_file() -> None:
    """Avalonia.Samples' F# MusicStore, skipped by the bridge for its language, was told to fix its project file."""
    from roslynmap.workspace.diagnostics import project_diagnostics

    row = {"name": "Legacy", "path": "src/Legacy/Legacy.vbproj", "semantic_level": "syntax_only", "error_count": 0,
           "resolved_refs": 0, "unresolved_refs": 0, "target_framework": None, "missing_reference_errors": 0,
           "first_errors": [], "symbol_count": 0, "ref_count": 0, "restored": False, "target_frameworks": [],
           "load_errors": ["Skipped non-C# project Legacy (Visual Basic): /repo/src/Legacy/Legacy.vbproj"]}
    [item] = project_diagnostics([row])
    assert item["hint"] == ("Visual Basic project: not indexed (roslynmap indexes C# projects); restoring or fixing "
                            "it changes nothing here, and C# code only it calls has no reference.")

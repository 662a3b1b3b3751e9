"""Projects published as packages (roslyn/packable.py): what symbols_unused keeps as public API even when an app of
the solution references the library (CAP's transports, Hangfire's nuspecs/)."""

from __future__ import annotations

import json
from pathlib import Path

from roslynmap.model.records import FactRecord
from roslynmap.roslyn.packable import published_package_facts

LIBRARY = '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework>' \
          '</PropertyGroup></Project>\n'


def _write(root: Path, files: dict[str, str]) -> list[dict[str, object]]:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return [{"index": i, "path": rel, "name": Path(rel).stem}
            for i, rel in enumerate(rel for rel in files if rel.endswith("proj"))]


def test_metadata_a_directory_build_props_chain_gives(tmp_path: Path) -> None:
    """CAP's src/Directory.Build.props sets PackageTags; Hangfire's chains to the one above it with
    GetPathOfFileAbove. A conditional `IsPackable` false (for test projects) is not evaluated: ignored."""
    projects = _write(tmp_path, {
        "Directory.Build.props": "<Project>\n  <PropertyGroup>\n    <PackageId>Acme.$(MSBuildProjectName)</PackageId>"
                                 "\n    <PackageTags>bus</PackageTags>\n  </PropertyGroup>\n</Project>\n",
        "src/Directory.Build.props": "<Project>\n  <Import Project=\"$([MSBuild]::GetPathOfFileAbove("
                                     "'Directory.Build.props', '$(MSBuildThisFileDirectory)../'))\" />\n"
                                     "  <PropertyGroup Condition=\"'$(IsTestProject)' == 'true'\">\n"
                                     "    <IsPackable>false</IsPackable>\n  </PropertyGroup>\n</Project>\n",
        "src/Bus/Bus.csproj": LIBRARY,
        "src/Redis/Redis.csproj": LIBRARY.replace("</TargetFramework>", "</TargetFramework>"
                                                  "<PackageId>Acme.Redis</PackageId>"),
        "samples/Demo/Demo.csproj": LIBRARY.replace("</TargetFramework>", "</TargetFramework>"
                                                    "<IsPackable>false</IsPackable>"),
    })
    assert published_package_facts(tmp_path, projects) == [
        # `Acme.$(MSBuildProjectName)` is not evaluated: the package is named by its project
        FactRecord("PublishedPackage", None, 0, "Directory.Build.props", 3, 1, "high", "Bus",
                   json.dumps({"evidence": "PackageId"})),
        FactRecord("PublishedPackage", None, 1, "src/Redis/Redis.csproj", 1, 1, "high", "Acme.Redis",
                   json.dumps({"evidence": "PackageId"}))]


def test_a_nuspec_packing_the_projects_assembly(tmp_path: Path) -> None:
    """Hangfire packs with nuspecs/Hangfire.Core.nuspec, its projects say nothing; a nuspec a restore unpacked (its
    NuGet.config puts the package folder in the repository) is no package of the solution."""
    nuspec = ("<package>\n  <metadata>\n    <id>Hangfire.Core</id>\n  </metadata>\n  <files>\n"
              "    <file src=\"netstandard2.0\\Hangfire.Core.dll\" target=\"lib\\netstandard2.0\" />\n"
              "    <file src=\"netstandard2.0\\Hangfire.Storage.dll\" target=\"lib\\netstandard2.0\" />\n"
              "  </files>\n</package>\n")
    projects = _write(tmp_path, {
        "nuspecs/Hangfire.Core.nuspec": nuspec,
        "packages/dapper/2.1.66/dapper.nuspec": "<package><metadata><id>Dapper</id></metadata></package>",
        "packages/dapper/2.1.66/dapper.2.1.66.nupkg": "",
        "src/Hangfire.Core/Hangfire.Core.csproj": LIBRARY,
        "src/Hangfire.Storage/Hangfire.Storage.csproj": LIBRARY,
        "src/Dapper/Dapper.csproj": LIBRARY,
        "samples/ConsoleSample/ConsoleSample.csproj": LIBRARY,
    })
    assert [(f.project, f.file, f.line, f.key, f.detail) for f in published_package_facts(tmp_path, projects)] == [
        (0, "nuspecs/Hangfire.Core.nuspec", 3, "Hangfire.Core", '{"evidence": "nuspec"}'),
        (1, "nuspecs/Hangfire.Core.nuspec", 7, "Hangfire.Core", '{"evidence": "nuspec"}')]


def test_a_choose_branch_is_a_condition(tmp_path: Path) -> None:
    """WPF UI's Directory.Build.props sets `IsPackable` true, then false in the `<Otherwise>` of a `<Choose>` on
    `$(IsCoreProject)`: a branch MSBuild may not take, so its false is ignored like any conditional one, and the
    library spelling its PackageId is published."""
    projects = _write(tmp_path, {
        "Directory.Build.props": "<Project>\n  <PropertyGroup>\n    <IsPackable>true</IsPackable>\n  </PropertyGroup>\n"
                                 "  <Choose>\n    <When Condition=\"$(IsCoreProject)\">\n      <PropertyGroup>\n"
                                 "        <PackageReadmeFile>README.md</PackageReadmeFile>\n      </PropertyGroup>\n"
                                 "    </When>\n    <Otherwise>\n      <PropertyGroup>\n"
                                 "        <IsPackable>false</IsPackable>\n      </PropertyGroup>\n    </Otherwise>\n"
                                 "  </Choose>\n</Project>\n",
        "src/Ui/Ui.csproj": LIBRARY.replace("</TargetFramework>", "</TargetFramework><PackageId>WPF-UI</PackageId>"),
    })
    assert published_package_facts(tmp_path, projects) == [
        FactRecord("PublishedPackage", None, 0, "src/Ui/Ui.csproj", 1, 1, "high", "WPF-UI",
                   json.dumps({"evidence": "PackageId"}))]

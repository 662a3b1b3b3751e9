"""Package references for projects_graph (roslyn/packages.py): from project.assets.json, else the project file."""

from __future__ import annotations

import json
from pathlib import Path

from roslynmap.model.records import PackageRecord
from roslynmap.roslyn.packages import package_references

ASSETS = {
    "targets": {"net10.0": {"xunit/2.9.3": {"type": "package"}, "xunit.core/2.9.3": {"type": "package"},
                            "Dapper/2.1.66": {"type": "package"}, "Core/1.0.0": {"type": "project"}}},
    "project": {"frameworks": {"net10.0": {"dependencies": {
        "xunit": {"target": "Package", "version": "[2.9.3, )"},
        "Dapper": {"target": "Package", "version": "[2.1.1, )"},
        "Microsoft.NET.ILLink.Tasks": {"target": "Package", "version": "[10.0.0, )", "autoReferenced": True}}}}},
}
PROJECT = """<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Polly" Version="8.5.2" />
    <PackageReference Include="Dapper"><Version>2.1.66</Version></PackageReference>
    <ProjectReference Include="../Core/Core.csproj" />
  </ItemGroup>
</Project>
"""


def test_direct_packages_with_the_version_restore_resolved(tmp_path: Path) -> None:
    (tmp_path / "obj").mkdir()
    (tmp_path / "obj/project.assets.json").write_text(json.dumps(ASSETS))
    (tmp_path / "App.csproj").write_text(PROJECT)
    assert package_references(tmp_path, "App.csproj", "obj/project.assets.json", "net10.0") == [
        PackageRecord("Dapper", "2.1.66", "[2.1.1, )", False),  # substituted
        PackageRecord("Microsoft.NET.ILLink.Tasks", None, "[10.0.0, )", True),
        PackageRecord("xunit", "2.9.3", "[2.9.3, )", False),
    ]


def test_an_unrestored_project_gives_what_it_asks_for(tmp_path: Path) -> None:
    (tmp_path / "App.csproj").write_text(PROJECT)
    assert package_references(tmp_path, "App.csproj", "obj/project.assets.json", "net10.0") == [
        PackageRecord("Dapper", None, "2.1.66", False),
        PackageRecord("Polly", None, "8.5.2", False),
    ]
    assert package_references(tmp_path, "Missing.csproj", None, None) == []

"""roslyn/appsettings.py `linked_definition_facts`: an appsettings file a project file links in from outside its folder
(fullstackhero's DbMigrator: `<None Include="..\\FSH.Starter.Api\\appsettings.json" Link="appsettings.json" />`)
defines its keys for the linking project too; what is not such a file, or may not be read, is left out."""

from __future__ import annotations

import json
from pathlib import Path

from roslynmap.roslyn.appsettings import linked_definition_facts

TOOL = """<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <None Include="..\\Api\\appsettings.json"
          Link="appsettings.json"
          CopyToOutputDirectory="PreserveNewest" />
    <Content Include="..\\Api\\appsettings.Development.json">
      <Link>appsettings.Development.json</Link>
    </Content>
    <EmbeddedResource Include="../../config/appsettings.json" />
    <None Include="..\\Api\\*.json" Link="%(Filename)%(Extension)" />
    <None Include="appsettings.Local.json" />
    <None Include="..\\Api\\notes.json" Link="notes.json" />
    <None Include="..\\Api\\appsettings.Secret.json" Link="appsettings.Secret.json" CopyToOutputDirectory="Always" />
    <None Include="..\\Api\\appsettings.Staging.json" Link="appsettings.Staging.json" />
    <None Include="..\\..\\..\\outside\\appsettings.json" Link="appsettings.Outside.json" />
  </ItemGroup>
</Project>
"""


def test_a_linked_appsettings_file_defines_its_keys_for_the_linking_project(tmp_path: Path) -> None:
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    for folder in (repo / "src" / "Api", repo / "src" / "Tool", repo / "config", outside):
        folder.mkdir(parents=True)
    (repo / "src" / "Api" / "Api.csproj").write_text('<Project Sdk="Microsoft.NET.Sdk" />\n')
    (repo / "src" / "Api" / "appsettings.json").write_text('{\n  "Billing": {\n    "Plan": "free"\n  }\n}\n')
    (repo / "src" / "Api" / "appsettings.Development.json").write_text('{\n  "Seed": true\n}\n')
    (repo / "src" / "Api" / "notes.json").write_text('{"Note": 1}\n')
    # A None item not copied to the output is never read at run time.
    (repo / "src" / "Api" / "appsettings.Staging.json").write_text('{"Staging": 1}\n')
    (repo / "config" / "appsettings.json").write_text('{"Shared": "x"}\n')  # in no project's folder
    (repo / "src" / "Tool" / "appsettings.Local.json").write_text('{"Local": 1}\n')  # its own: already read
    (outside / "appsettings.json").write_text('{"Token": "abc"}\n')
    (repo / "src" / "Api" / "appsettings.Secret.json").symlink_to(outside / "appsettings.json")
    (repo / "src" / "Tool" / "Tool.csproj").write_text(TOOL)
    projects = [{"index": 0, "name": "Api", "path": "src/Api/Api.csproj"},
                {"index": 1, "name": "Tool", "path": "src/Tool/Tool.csproj"}]
    rows = linked_definition_facts(repo, projects)
    assert [(r.kind, r.project, r.file, r.line, r.key, json.loads(r.detail)) for r in rows] == [
        ("ConfigDefinition", 1, "src/Api/appsettings.json", 3, "Billing:Plan",
         {"value": "free", "link": "appsettings.json"}),
        ("ConfigDefinition", 1, "src/Api/appsettings.Development.json", 2, "Seed",
         {"value": True, "environment": "Development", "link": "appsettings.Development.json"}),
        # No Link: MSBuild gives an item from outside the project's folder its file name.
        ("ConfigDefinition", 1, "config/appsettings.json", 1, "Shared", {"value": "x", "link": "appsettings.json"})]

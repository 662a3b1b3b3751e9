"""Launch profiles as configuration (roslyn/launch.py): what `dotnet run` sets for a project, read from its
`Properties/launchSettings.json` as Visual Studio writes it (comments, trailing commas)."""

from __future__ import annotations

import json
from pathlib import Path

from roslynmap.roslyn.launch import launch_facts

SETTINGS = """{
  // written by Visual Studio
  "profiles": {
    "http": {
      "commandName": "Project",
      "applicationUrl": "http://localhost:5000",
      "environmentVariables": {
        "ASPNETCORE_ENVIRONMENT": "Development",
        "Cache__Size": 64,
      },
    },
    "IIS Express": {
      "commandName": "IISExpress",
      "environmentVariables": { "Cache__Size": "8" }
    },
    "Docker": "not a profile"
  }
}"""


def _facts(repo: Path) -> list[tuple[str | None, int | None, str, dict[str, object]]]:
    return [(r.file, r.line, r.key, json.loads(r.detail)) for r in launch_facts(repo)]


def test_a_profile_defines_its_variables_and_a_project_profile_what_dotnet_run_sets(tmp_path: Path) -> None:
    (tmp_path / "src" / "Api" / "Properties").mkdir(parents=True)
    (tmp_path / "src" / "Api" / "Properties" / "launchSettings.json").write_text(SETTINGS)
    file = "src/Api/Properties/launchSettings.json"
    http = {"source": "launch_settings", "profile": "http"}
    assert _facts(tmp_path) == [
        (file, 8, "ASPNETCORE_ENVIRONMENT", {"value": "Development", **http}),
        (file, 9, "Cache:Size", {"value": 64, **http}),
        (file, 4, "DOTNET_LAUNCH_PROFILE", {"value": "http", "pattern": "launch_default", **http}),
        (file, 6, "ASPNETCORE_URLS", {"value": "http://localhost:5000", "pattern": "launch_default", **http}),
        # IIS Express applies the variables but is not `dotnet run`: no DOTNET_LAUNCH_PROFILE
        (file, 14, "Cache:Size", {"value": "8", "source": "launch_settings", "profile": "IIS Express"})]


def test_files_it_cannot_read_define_nothing(tmp_path: Path) -> None:
    for name, text in (("Broken", "{ not json"), ("Listless", '{"profiles": []}'), ("Array", "[1, 2]")):
        (tmp_path / name / "Properties").mkdir(parents=True)
        (tmp_path / name / "Properties" / "launchSettings.json").write_text(text)
    (tmp_path / "bin" / "Properties").mkdir(parents=True)
    (tmp_path / "bin" / "Properties" / "launchSettings.json").write_text(SETTINGS)  # build output: never read
    assert _facts(tmp_path) == []

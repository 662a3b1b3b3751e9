"""Configuration keys a project's launch profiles set, as `ConfigDefinition` facts (`Properties/launchSettings.json`).

`dotnet run` (and Visual Studio, and an Aspire AppHost for the projects it runs) starts a project with one of its
profiles: the profile's `environmentVariables` become configuration (`Payments__Mode` is `Payments:Mode`), and a
`Project` profile also sets `DOTNET_LAUNCH_PROFILE` to the profile's name and `ASPNETCORE_URLS` to its
`applicationUrl`. Aspire's templates read `builder.Configuration["DOTNET_LAUNCH_PROFILE"]` (aspire-samples'
AspireShop.Frontend): without these facts that key read `used_but_undefined`. The implicit keys carry
`pattern: "launch_default"` (they count for a read, and are not listed on their own).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from roslynmap.model.records import FactRecord
from roslynmap.roslyn import jsonc


def _line(lines: list[str], text: str, after: int) -> int:
    """1-based line of the first `"text"` at or after line index `after` (the profile's own line if absent)."""
    return next((n for n in range(after, len(lines)) if f'"{text}"' in lines[n]), after) + 1


def _fact(rel: str, line: int, key: str, detail: dict[str, Any]) -> FactRecord:
    return FactRecord("ConfigDefinition", None, None, rel, line, 1, "high", key, json.dumps(detail))


def launch_facts(root: Path) -> list[FactRecord]:
    rows: list[FactRecord] = []
    for rel, text, data in jsonc.objects(root, ["Properties/launchSettings.json"]):
        profiles = data.get("profiles")
        if not isinstance(profiles, dict):
            continue
        lines = text.splitlines()
        for name, profile in profiles.items():
            if not isinstance(profile, dict):
                continue
            at = _line(lines, name, 0) - 1
            base = {"source": "launch_settings", "profile": name}
            variables = profile.get("environmentVariables")
            for variable, value in (variables.items() if isinstance(variables, dict) else []):
                key = variable.replace("__", ":")  # as the environment variables configuration provider reads it
                rows.append(_fact(rel, _line(lines, variable, at), key, {"value": jsonc.shown(value), **base}))
            if profile.get("commandName") == "Project":
                implicit = {"pattern": "launch_default", **base}
                rows.append(_fact(rel, at + 1, "DOTNET_LAUNCH_PROFILE", {"value": name, **implicit}))
                if isinstance(profile.get("applicationUrl"), str):
                    rows.append(_fact(rel, _line(lines, "applicationUrl", at), "ASPNETCORE_URLS",
                                      {"value": profile["applicationUrl"][:80], **implicit}))
    return rows

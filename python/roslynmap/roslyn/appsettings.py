"""Configuration keys defined in `appsettings*.json` (and `appsettings*.yml`/`.yaml`), as facts (kind
`ConfigDefinition`).

Read at index time beside the compile, so surfaces_list_config_keys can say which keys are
defined but unused and which are used but undefined. JSON with comments and trailing commas
(which ASP.NET accepts) is tolerated.
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from roslynmap.model.readable import BUILD_DIRS, in_project_folders, is_readable, repository_files
from roslynmap.model.records import FactRecord
from roslynmap.roslyn import jsonc, yamlconf
from roslynmap.roslyn.compose import compose_facts
from roslynmap.roslyn.functions_host import host_facts
from roslynmap.roslyn.launch import launch_facts
from roslynmap.roslyn.local_settings import local_settings_facts
from roslynmap.roslyn.projrefs import linked_items
from roslynmap.roslyn.razor import razor_facts, reference_facts


def _flatten(value: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, (dict, list)) and not value and prefix:
        yield prefix, None  # `"Caching": {}`: the section is there, empty (code binding it finds it defined)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _flatten(item, f"{prefix}:{key}" if prefix else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _flatten(item, f"{prefix}:{index}")
    elif prefix:
        yield prefix, value


def _line_of(lines: list[str], key: str) -> int:
    """The line of a flattened key: each segment searched after the line of its parent."""
    line = 0
    for segment in key.split(":"):
        if segment.isdigit():
            continue  # array index: no name in the text
        found = next((n for n in range(line, len(lines)) if f'"{segment}"' in lines[n]), None)
        if found is None:
            break
        line = found
    return line + 1


# YAML configuration (NetEscapades.Configuration.Yaml's AddYamlFile): Exceptionless loads only appsettings*.yml. Read
# whether or not the code is seen to load them: a file named so beside a project is that project's configuration.
_PATTERNS = ("appsettings*.json", "appsettings*.yml", "appsettings*.yaml")


def _environment(name: str) -> str | None:
    """`appsettings.Development.json` (`.yml`) -> "Development"; the base file has none."""
    middle = name[len("appsettings"):].rsplit(".", 1)[0].strip(".")
    return middle or None


def definition_facts(root: Path, project_files: Iterable[str] | None = None) -> list[FactRecord]:
    """Fact records, as the bridge's: appsettings keys, the environment docker-compose sets (roslyn/compose.py)
    and launch profiles set (roslyn/launch.py), a function app's local.settings.json (roslyn/local_settings.py), then
    Razor Pages and routable components, then the markup's references to code (roslyn/razor.py), then the Functions
    host's route prefix (roslyn/functions_host.py), all read from files the compile does not index. With
    `project_files` (the solution's projects), only files in their folders count, but docker-compose's, which name
    the projects they build wherever they are."""
    scoped = list(project_files) if project_files is not None else None

    def own(facts: list[FactRecord]) -> list[FactRecord]:
        return [f for f in facts if f.file is None or in_project_folders(f.file, scoped)]

    return (own(_appsettings_facts(root)) + compose_facts(root) + own(launch_facts(root))
            + own(local_settings_facts(root)) + own(razor_facts(root)) + own(reference_facts(root))
            + own(host_facts(root)))


def linked_definition_facts(root: Path, projects: list[dict[str, Any]]) -> list[FactRecord]:
    """The keys of an appsettings file a project links in from outside its folder (fullstackhero's DbMigrator links
    the API's appsettings.json and runs on it: ~100 keys were undefined for it), once more as that project's own (the
    record's project), its environment from the name it is linked as, `link` in the detail."""
    rows: list[FactRecord] = []
    for item in linked_items(root, projects):
        name = PurePosixPath(item.link).name
        if not any(fnmatch.fnmatchcase(name, p) for p in _PATTERNS) or BUILD_DIRS.intersection(item.path.split("/")) \
                or not is_readable(root, item.path):
            continue
        rows += _file_facts(root, item.path, _environment(name), item.project, {"link": item.link})
    return rows


def _appsettings_facts(root: Path) -> list[FactRecord]:
    rows: list[FactRecord] = []
    for path in repository_files(root, _PATTERNS):
        rows += _file_facts(root, path.relative_to(root).as_posix(), _environment(path.name))
    return rows


def _file_facts(root: Path, rel: str, environment: str | None, project: int | None = None,
                extra: dict[str, Any] | None = None) -> list[FactRecord]:
    """One appsettings file's keys; `project`: the project they are defined for (None: the one beside the file)."""
    text = (root / rel).read_text(encoding="utf-8-sig", errors="replace")
    if rel.endswith((".yml", ".yaml")):
        return [FactRecord("ConfigDefinition", None, project, rel, k.line, 1, "high", k.key,
                           json.dumps({"value": k.value, **({"environment": environment} if environment else {}),
                                       **(extra or {})}))
                for k in yamlconf.keys(text)]
    try:
        data = jsonc.loads(text)
    except ValueError as exc:
        error = json.dumps({"error": str(exc)})
        return [FactRecord("ConfigDefinition", None, project, rel, 1, 1, "low", "", error)]
    rows: list[FactRecord] = []
    lines = text.splitlines()
    for key, value in _flatten(data, ""):
        line = _line_of(lines, key)
        detail: dict[str, Any] = {"value": jsonc.shown(value)}
        if environment:
            detail["environment"] = environment
        detail.update(extra or {})
        rows.append(FactRecord("ConfigDefinition", None, project, rel, line, 1, "high", key, json.dumps(detail)))
    return rows

"""Project references as facts (kind `ProjectReference`), read from the project files.

A library's configuration keys are checked against the host projects that reference it
(query/surfaces.config_keys), so the index must know who references whom. The bridge's loaded
solution knows too, but this reads the `<ProjectReference Include=...>` items beside it, like
appsettings files: no schema change, and a project MSBuild could not load keeps its references.
Record: (kind, None, project index, project file, line, 1, "high", referenced project name, {"path"}).
`linked_items` reads the files a project links in from outside its folder the same way (roslyn/appsettings.py
counts a linked appsettings file for the linking project).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from roslynmap.model.records import FactRecord

_INCLUDE = re.compile(r"<ProjectReference\s+[^>]*Include\s*=\s*\"([^\"]+)\"", re.I)
# An item that may carry a file to the output: its attributes, and its body when not self-closing.
_ITEM = re.compile(r"<(None|Content|EmbeddedResource)\b([^>]*?)(?:/>|>(.*?)</\1\s*>)", re.I | re.S)
_ATTRIBUTE = re.compile(r"\b(Include|Link|CopyToOutputDirectory|CopyToPublishDirectory)\s*=\s*\"([^\"]*)\"", re.I)
_LINK = re.compile(r"<Link>\s*([^<]*?)\s*</Link>", re.I)


def _project_files(root: Path, projects: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], str, str, str]]:
    """(project, its repo-relative path, its folder, its text) for each project whose project file is readable."""
    for project in projects:
        rel = str(project.get("path") or "")
        path = root / rel
        if not rel.endswith("proj") or not path.is_file():
            continue
        yield project, rel, posixpath.dirname(rel), path.read_text(encoding="utf-8-sig", errors="replace")


def project_reference_facts(root: Path, projects: list[dict[str, Any]]) -> list[FactRecord]:
    by_path = {str(p["path"]).lower(): p for p in projects if p.get("path")}
    rows: list[FactRecord] = []
    for project, rel, folder, text in _project_files(root, projects):
        for match in _INCLUDE.finditer(text):
            target = posixpath.normpath(posixpath.join(folder, match.group(1).replace("\\", "/")))
            referenced = by_path.get(target.lower())
            if referenced is None:
                continue
            line = text.count("\n", 0, match.start()) + 1
            rows.append(FactRecord("ProjectReference", None, project["index"], rel, line, 1, "high", referenced["name"],
                                    json.dumps({"path": target})))
    return rows


class LinkedItem(NamedTuple):
    project: int  # the linking project's index
    path: str  # the linked file, repo-relative
    link: str  # its path in the project: the Link, else its file name (MSBuild's AssignTargetPath)
    line: int  # the item's line in the project file


def linked_items(root: Path, projects: list[dict[str, Any]]) -> list[LinkedItem]:
    """The None/Content/EmbeddedResource items a project file includes from outside its folder (fullstackhero's
    DbMigrator: `<None Include="..\\FSH.Starter.Api\\appsettings.json" Link="appsettings.json" />`). An Include
    with wildcards or properties, or leaving the repository, is skipped."""
    rows: list[LinkedItem] = []
    for project, _rel, folder, text in _project_files(root, projects):
        for match in _ITEM.finditer(text):
            attributes = {name.lower(): value for name, value in _ATTRIBUTE.findall(match.group(2))}
            include = attributes.get("include", "")
            if not include or any(c in include for c in "*?$%@;"):
                continue
            target = posixpath.normpath(posixpath.join(folder, include.replace("\\", "/")))
            if target.startswith(("../", "/")) or target == ".." or (folder and target.startswith(folder + "/")) \
                    or (not folder and "/" not in target):
                continue  # outside the repository, or in the project's own folder (its own file already)
            # A None item reaches the output only when copied (Content is, by the SDK's default).
            if match.group(1).lower() == "none" and "copytooutputdirectory" not in attributes \
                    and "copytopublishdirectory" not in attributes \
                    and not re.search(r"<CopyTo(Output|Publish)Directory>", match.group(3) or ""):
                continue
            body = _LINK.search(match.group(3) or "")
            link = attributes.get("link") or (body.group(1) if body else "") or posixpath.basename(target)
            line = text.count("\n", 0, match.start()) + 1
            rows.append(LinkedItem(project["index"], target, link.replace("\\", "/"), line))
    return rows

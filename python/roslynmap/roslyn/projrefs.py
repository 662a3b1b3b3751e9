"""Project references as facts (kind `ProjectReference`), read from the project files.

A library's configuration keys are checked against the host projects that reference it
(query/surfaces.config_keys), so the index must know who references whom. The bridge's loaded
solution knows too, but this reads the `<ProjectReference Include=...>` items beside it, like
appsettings files: no schema change, and a project MSBuild could not load keeps its references.
Record: (kind, None, project index, project file, line, 1, "high", referenced project name, {"path"}).
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any

from roslynmap.model.records import FactRecord

_INCLUDE = re.compile(r"<ProjectReference\s+[^>]*Include\s*=\s*\"([^\"]+)\"", re.I)


def project_reference_facts(root: Path, projects: list[dict[str, Any]]) -> list[FactRecord]:
    by_path = {str(p["path"]).lower(): p for p in projects if p.get("path")}
    rows: list[FactRecord] = []
    for project in projects:
        rel = str(project.get("path") or "")
        path = root / rel
        if not rel.endswith("proj") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        folder = posixpath.dirname(rel)
        for match in _INCLUDE.finditer(text):
            target = posixpath.normpath(posixpath.join(folder, match.group(1).replace("\\", "/")))
            referenced = by_path.get(target.lower())
            if referenced is None:
                continue
            line = text.count("\n", 0, match.start()) + 1
            rows.append(FactRecord("ProjectReference", None, project["index"], rel, line, 1, "high", referenced["name"],
                                    json.dumps({"path": target})))
    return rows

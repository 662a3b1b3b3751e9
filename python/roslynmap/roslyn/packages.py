"""A project's direct package references, for the dependency graph (projects_graph).

Read from what restore wrote (project.assets.json: the requested range and the version it resolved),
else from the project file's PackageReference items (requested version only: nothing was resolved).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import orjson

from roslynmap.model.records import PackageRecord


def package_references(root: Path, project_path: str, assets_file: str | None,
                       framework: str | None) -> list[PackageRecord]:
    """The direct package references sorted by name; [] when unreadable."""
    assets = root / assets_file if assets_file else None
    if assets is not None and assets.is_file():
        try:
            return _from_assets(orjson.loads(assets.read_bytes()), framework)
        except (orjson.JSONDecodeError, AttributeError, TypeError):
            pass
    return _from_project_file(root / project_path)


def _from_assets(assets: dict[str, Any], framework: str | None) -> list[PackageRecord]:
    frameworks: dict[str, Any] = assets.get("project", {}).get("frameworks", {})
    chosen: dict[str, Any] = frameworks.get(framework or "") or next(iter(frameworks.values()), {})
    targets: dict[str, Any] = assets.get("targets", {})
    target: dict[str, Any] = targets.get(framework or "") or next(iter(targets.values()), {})
    resolved = {key.split("/", 1)[0].lower(): key.split("/", 1)[1] for key, value in target.items()
                if "/" in key and value.get("type") == "package"}
    out = []
    for name, dep in (chosen.get("dependencies") or {}).items():
        if dep.get("target", "Package") != "Package":
            continue
        out.append(PackageRecord(str(name), resolved.get(name.lower()), dep.get("version"),
                                 bool(dep.get("autoReferenced"))))
    return sorted(out, key=lambda p: p.name.lower())


def _from_project_file(path: Path) -> list[PackageRecord]:
    try:
        tree = ET.parse(path)
    except (OSError, ET.ParseError):
        return []
    out = []
    for item in tree.iter():
        name = item.get("Include")
        if item.tag.rsplit("}", 1)[-1] != "PackageReference" or not name:
            continue
        version = item.get("Version") or next((c.text for c in item if c.tag.rsplit("}", 1)[-1] == "Version"), None)
        out.append(PackageRecord(name, None, version, False))
    return sorted(out, key=lambda p: p.name.lower())

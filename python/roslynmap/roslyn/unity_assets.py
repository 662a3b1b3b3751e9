"""What a Unity project's text-serialized assets say about its scripts, read once at index time (facts).

What is read and how: model/unity_files.py. An asset that is not text (binary serialization, or a Git LFS pointer
whose content is not in the checkout: Boss Room's scenes) is skipped and counted, so a reader knows what it could not
see; of those, the ones that could attach a script (a scene, a prefab, a ScriptableObject's .asset; not a
LightingData.asset, which Unity writes in binary even under Force Text) are counted apart.

Facts (file and project None; the asset's path in the detail):
- `UnityScript`: key the script's path, detail {"guid"}: the script has a `.cs.meta`.
- `UnityScriptUse`: key the script's path, detail {"asset", "count"}: the asset attaches it `count` times.
- `UnityEventName`: key a method name, detail {"asset"}: the asset wires or calls it by name.
- `UnityAssetScan`: one, key "assets", detail {"text", "binary", "binary_count", "lfs", "lfs_count", "unreadable",
  "unresolved_guids", "attaching", "attaching_count"}: what was read and what was not (`attaching`: the first of
  those not read that could attach a script).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from roslynmap.model.records import FactRecord
from roslynmap.model.unity_files import is_asset, is_unity_project, may_attach, project_files, read_asset

_GUID = re.compile(rb"^guid:\s*([0-9a-fA-F]{32})\s*$")
_LISTED = 10  # the first paths of assets not read, kept in the scan fact


def is_unity_layout(projects: Iterable[dict[str, Any]]) -> bool:
    """The projects of a Unity project (query/unity.is_unity_baseline, before there is a baseline)."""
    return any(is_unity_project(str(p.get("name", "")), str(p.get("path", ""))) for p in projects)


def _script_guid(meta: Path) -> str | None:
    try:
        with meta.open("rb") as stream:
            for n, line in enumerate(stream):
                if (match := _GUID.match(line)) is not None:
                    return match.group(1).decode().lower()
                if n > 8:  # `guid:` is the second line Unity writes
                    return None
    except OSError:
        return None
    return None


def _scenes_first(paths: list[str]) -> list[str]:
    """Scenes and prefabs named first: they attach the most."""
    return sorted(paths, key=lambda path: (not path.endswith(".unity"), not path.endswith(".prefab"), path))


def asset_facts(root: Path, projects: list[dict[str, Any]]) -> list[FactRecord]:
    """The facts above for a Unity project (none for any other)."""
    if not is_unity_layout(projects):
        return []
    scripts: dict[str, str] = {}  # guid -> script path
    uses: dict[str, Counter[str]] = {}  # asset -> guids
    wired: dict[str, set[str]] = {}  # asset -> method names
    skipped: dict[str, list[str]] = {"binary": [], "lfs": [], "unreadable": []}
    text = 0
    for rel, path in project_files(root):
        if rel.lower().endswith(".cs.meta"):
            if (guid := _script_guid(path)) is not None:
                scripts[guid] = rel[:-len(".meta")]
            continue
        if not is_asset(rel):
            continue
        state, guids, methods = read_asset(path)
        if state == "json":
            continue
        if state != "text":
            skipped[state].append(rel)
            continue
        text += 1
        if guids:
            uses[rel] = guids
        if methods:
            wired[rel] = methods
    for kind, paths in skipped.items():
        skipped[kind] = _scenes_first(paths)
    attaching = _scenes_first([rel for paths in skipped.values() for rel in paths if may_attach(rel)])
    facts = [FactRecord("UnityScript", None, None, None, None, None, "high", script, json.dumps({"guid": guid}))
             for guid, script in sorted(scripts.items(), key=lambda item: item[1])]
    unresolved = 0
    for asset, guids in uses.items():
        for guid, count in sorted(guids.items()):
            if guid in scripts:
                facts.append(FactRecord("UnityScriptUse", None, None, None, None, None, "high", scripts[guid],
                                        json.dumps({"asset": asset, "count": count})))
            else:
                unresolved += count  # a package's script (Library/PackageCache) or a DLL's
    facts += [FactRecord("UnityEventName", None, None, None, None, None, "high", name, json.dumps({"asset": asset}))
              for asset, names in wired.items() for name in sorted(names)]
    facts.append(FactRecord("UnityAssetScan", None, None, None, None, None, "high", "assets", json.dumps({
        "text": text, "binary": skipped["binary"][:_LISTED], "binary_count": len(skipped["binary"]),
        "lfs": skipped["lfs"][:_LISTED], "lfs_count": len(skipped["lfs"]),
        "unreadable": skipped["unreadable"][:_LISTED], "unresolved_guids": unresolved,
        "attaching": attaching[:_LISTED], "attaching_count": len(attaching)})))
    return facts

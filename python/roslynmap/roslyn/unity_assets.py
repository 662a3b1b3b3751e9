"""What a Unity project's text-serialized assets say about its scripts, read once at index time (facts).

A scene, prefab or asset attaches a script by the guid of its `.cs.meta` (`m_Script: {fileID: 11500000, guid: <32
hex>, type: 3}`) and wires methods by name (a UnityEvent's `m_MethodName: OnStartClicked`, a prefab instance's
override of it, an animation event's `functionName: OnFootstep`). Every file is streamed line by line: Boss Room's
scenes run to megabytes. An asset that is not text (binary serialization, or a Git LFS pointer whose content is not
in the checkout: Boss Room's scenes) is skipped and counted, so a reader knows what it could not see.

Facts (file and project None; the asset's path in the detail):
- `UnityScript`: key the script's path, detail {"guid"}: the script has a `.cs.meta`.
- `UnityScriptUse`: key the script's path, detail {"asset", "count"}: the asset attaches it `count` times.
- `UnityEventName`: key a method name, detail {"asset"}: the asset wires or calls it by name.
- `UnityAssetScan`: one, key "assets", detail {"text", "binary", "binary_count", "lfs", "lfs_count", "unreadable",
  "unresolved_guids"}: what was read and what was not.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from roslynmap.model.records import FactRecord

# Unity's text-serialized assets that may attach a script or wire a method (a ScriptableObject's `.asset`, a state
# machine behaviour in a `.controller`, a Timeline's clips in a `.playable`, a signal's `.signal`).
YAML_SUFFIXES = (".unity", ".prefab", ".asset", ".controller", ".overridecontroller", ".playable", ".anim", ".signal",
                 ".preset", ".mixer")
# A model's import settings hold the animation events of its clips (Boss Room's CharacterSet.fbx); always text.
MODEL_META_SUFFIXES = (".fbx.meta", ".obj.meta", ".blend.meta", ".dae.meta", ".max.meta", ".ma.meta", ".mb.meta")
# Unity's caches and build output (Library/ holds thousands of imported .asset files), never the project's own.
_SKIPPED = frozenset({"library", "temp", "logs", "obj", "bin", "node_modules", "build", "builds", "cvs"})
_SCRIPT = re.compile(rb"m_Script:\s*\{\s*fileID:\s*11500000,\s*guid:\s*([0-9a-fA-F]{32})")
_METHOD = re.compile(rb"(?:m_MethodName|functionName):[ \t]*([A-Za-z_]\w*)")
_OVERRIDE_VALUE = re.compile(rb"^\s*value:[ \t]*([A-Za-z_]\w*)")
_GUID = re.compile(rb"^guid:\s*([0-9a-fA-F]{32})\s*$")
_LISTED = 10  # the first paths of assets not read, kept in the scan fact


def is_unity_layout(projects: Iterable[dict[str, Any]]) -> bool:
    """The projects of a Unity project (query/unity.is_unity_baseline, before there is a baseline)."""
    return any(str(p.get("path", "")).endswith(".asmdef") or p.get("name") == "Assembly-CSharp"
               or ("Assets/" in str(p.get("path", "")) and str(p.get("path", "")).endswith("/")) for p in projects)


def _files(root: Path) -> Iterable[tuple[str, Path]]:
    """(repo-relative path, path) of the files Unity imports: no hidden or `~` folders, no caches, no links."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not d.endswith("~")
                         and d.lower() not in _SKIPPED and not os.path.islink(os.path.join(folder, d)))
        for name in sorted(files):
            path = Path(folder, name)
            if not path.is_symlink():
                yield path.relative_to(root).as_posix(), path


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


def _read_asset(path: Path, text_only: bool) -> tuple[str, Counter[str], set[str]]:
    """(what it is: "text", "json", "binary", "lfs" or "unreadable"; the script guids it attaches, with their
    counts; the method names it wires)."""
    guids: Counter[str] = Counter()
    methods: set[str] = set()
    try:
        with path.open("rb") as stream:
            first = stream.readline()
            if not text_only:
                if first.startswith(b"version https://git-lfs"):
                    return "lfs", guids, methods
                if first.lstrip().startswith((b"{", b"[")):
                    return "json", guids, methods  # a package's settings (XRSettings.asset): no Unity YAML in it
                if not first.startswith(b"%YAML"):
                    return "binary", guids, methods
            overridden = False  # the last line was a prefab override's `propertyPath: ...m_MethodName`
            for line in stream:
                if overridden and (value := _OVERRIDE_VALUE.match(line)) is not None:
                    methods.add(value.group(1).decode())
                overridden = False
                if b"m_Script" in line:
                    if (script := _SCRIPT.search(line)) is not None:
                        guids[script.group(1).decode().lower()] += 1
                elif b"m_MethodName" in line or b"functionName" in line:
                    if (method := _METHOD.search(line)) is not None:
                        methods.add(method.group(1).decode())
                    elif line.rstrip().endswith(b"m_MethodName"):
                        overridden = True
    except OSError:
        return "unreadable", guids, methods
    return "text", guids, methods


def asset_facts(root: Path, projects: list[dict[str, Any]]) -> list[FactRecord]:
    """The facts above for a Unity project (none for any other)."""
    if not is_unity_layout(projects):
        return []
    scripts: dict[str, str] = {}  # guid -> script path
    uses: dict[str, Counter[str]] = {}  # asset -> guids
    wired: dict[str, set[str]] = {}  # asset -> method names
    skipped: dict[str, list[str]] = {"binary": [], "lfs": [], "unreadable": []}
    text = 0
    for rel, path in _files(root):
        lower = rel.lower()
        if lower.endswith(".cs.meta"):
            if (guid := _script_guid(path)) is not None:
                scripts[guid] = rel[:-len(".meta")]
            continue
        model_meta = lower.endswith(MODEL_META_SUFFIXES)
        if not model_meta and not lower.endswith(YAML_SUFFIXES):
            continue
        state, guids, methods = _read_asset(path, text_only=model_meta)
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
    for paths in skipped.values():  # scenes and prefabs named first: they attach the most
        paths.sort(key=lambda path: (not path.endswith(".unity"), not path.endswith(".prefab"), path))
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
        "unreadable": skipped["unreadable"][:_LISTED], "unresolved_guids": unresolved})))
    return facts

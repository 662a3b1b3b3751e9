"""What a Unity project's files are, written once for the index (roslyn/unity_assets.py, which reads its assets
into facts) and the queries (query/unity.py, which reads them itself for a baseline built before they were facts).

A scene, prefab or asset attaches a script by the guid of its `.cs.meta` (`m_Script: {fileID: 11500000, guid: <32
hex>, type: 3}`) and wires methods by name (a UnityEvent's `m_MethodName: OnStartClicked`, a prefab instance's
override of it, an animation event's `functionName: OnFootstep`). Every file is streamed line by line: Boss Room's
scenes run to megabytes.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

# Unity's text-serialized assets that may attach a script or wire a method (a ScriptableObject's `.asset`, a state
# machine behaviour in a `.controller`, a Timeline's clips in a `.playable`, a signal's `.signal`).
YAML_SUFFIXES = (".unity", ".prefab", ".asset", ".controller", ".overridecontroller", ".playable", ".anim", ".signal",
                 ".preset", ".mixer")
# A model's import settings hold the animation events of its clips (Boss Room's CharacterSet.fbx); always text.
MODEL_META_SUFFIXES = (".fbx.meta", ".obj.meta", ".blend.meta", ".dae.meta", ".max.meta", ".ma.meta", ".mb.meta")
# Of those, the assets that can hold a component or a ScriptableObject of the game's scripts (a scene, a prefab, a
# ScriptableObject's .asset, a state machine behaviour, a Timeline's clip, a preset of a component): one of these not
# read may attach a class none of the others attaches. An animation, a mixer or a signal attaches none.
ATTACHING_SUFFIXES = (".unity", ".prefab", ".asset", ".controller", ".overridecontroller", ".playable", ".preset")
# Unity writes a scene's baked lighting in binary even under Force Text serialization; it holds no script.
_NEVER_ATTACHING = re.compile(r"(?:^|/)LightingData[^/]*\.asset$", re.IGNORECASE)
# Unity's caches and build output beside Assets/ (Library/ holds thousands of imported .asset files), never the
# project's own; below Assets/ or Packages/ a folder of these names is the game's (Assets/Prefabs/Build/).
_OUTSIDE_ASSETS = frozenset({"library", "temp", "logs", "obj", "bin", "node_modules", "build", "builds"})
_CONTENT_ROOTS = frozenset({"assets", "packages"})
_METHOD = re.compile(rb"(?:m_MethodName|functionName):[ \t]*([A-Za-z_]\w*)")
_SCRIPT = re.compile(rb"m_Script:\s*\{\s*fileID:\s*11500000,\s*guid:\s*([0-9a-fA-F]{32})")
_OVERRIDE_VALUE = re.compile(rb"^\s*value:[ \t]*([A-Za-z_]\w*)")

AssetState = Literal["text", "json", "binary", "lfs", "unreadable"]


def is_unity_project(name: str, path: str) -> bool:
    """A project of a Unity project: an .asmdef's, Unity's generated Assembly-CSharp, or one synthesized for a folder
    of Assets/ (`Assets/`, `Assets/Plugins/`)."""
    return path.endswith(".asmdef") or name == "Assembly-CSharp" or ("Assets/" in path and path.endswith("/"))


def is_skipped_folder(name: str, parents: tuple[str, ...]) -> bool:
    """Whether Unity imports nothing of folder `name` under `parents` (its path from the repository's root): hidden,
    `Samples~` and cvs folders anywhere; caches and build output only outside Assets/ and Packages/."""
    lower = name.lower()
    if lower.startswith(".") or lower.endswith("~") or lower == "cvs":
        return True
    return lower in _OUTSIDE_ASSETS and not any(p.lower() in _CONTENT_ROOTS for p in parents)


def project_files(root: Path) -> Iterable[tuple[str, Path]]:
    """(repo-relative path, path) of the files Unity imports, in path order; no symbolic links followed: nothing
    outside the repository is read."""
    for folder, dirs, files in os.walk(root):
        parents = Path(folder).relative_to(root).parts
        dirs[:] = sorted(d for d in dirs if not is_skipped_folder(d, parents)
                         and not os.path.islink(os.path.join(folder, d)))
        for name in sorted(files):
            path = Path(folder, name)
            if not path.is_symlink():
                yield path.relative_to(root).as_posix(), path


def is_asset(rel: str) -> bool:
    """An asset the index reads: a text-serialized one, or a model's import settings."""
    return rel.lower().endswith(YAML_SUFFIXES + MODEL_META_SUFFIXES)


def may_attach(rel: str) -> bool:
    """Whether this asset can attach a script (so not reading it hides attachments)."""
    return rel.lower().endswith(ATTACHING_SUFFIXES) and _NEVER_ATTACHING.search(rel) is None


def read_asset(path: Path) -> tuple[AssetState, Counter[str], set[str]]:
    """(what it is; the script guids it attaches, with their counts; the method names it wires). A binary asset, a Git
    LFS pointer whose content is not in the checkout (Boss Room's scenes) or a JSON settings asset holds nothing
    read; a model's import settings are always text."""
    guids: Counter[str] = Counter()
    methods: set[str] = set()
    try:
        with path.open("rb") as stream:
            first = stream.readline()
            if not path.name.lower().endswith(MODEL_META_SUFFIXES):
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

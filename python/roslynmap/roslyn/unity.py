"""Unity projects: the assemblies Unity compiles, read from its layout (docs/honesty.md, "Unity projects").

Unity writes its .csproj/.sln files locally (git ignores them), so a Unity repository has none to load. Its
layout says what it compiles: each `.asmdef` is an assembly of the .cs files in its folder and below (minus
folders a nested .asmdef owns; an `.asmref` lends its folder to another asmdef), the other scripts under
`Assets/` go to Unity's predefined assemblies (Assembly-CSharp, -Editor, -firstpass). This module turns that
into project specs the bridge builds an in-memory workspace from (UnityLoader.cs). Pure file system.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from roslynmap.model.unity_files import is_skipped_folder

VERSION_FILE = "ProjectSettings/ProjectVersion.txt"
# Unity's predefined assemblies: scripts in these top-level Assets folders compile first (firstpass).
_FIRSTPASS = ("Plugins", "Standard Assets", "Pro Standard Assets")
_GUID = re.compile(r"^guid:\s*([0-9a-fA-F]{32})\s*$", re.M)
_VERSION = re.compile(r"m_EditorVersion:\s*(\d+)\.(\d+)")
# The Unity versions of each year release (for UNITY_<year>_<minor>_OR_NEWER); Unity 6 is 6000.x after 2023.
_MINORS = {2017: 4, 2018: 4, 2019: 4, 2020: 3, 2021: 3, 2022: 3, 2023: 3}


def is_unity_marker(solution: str | None) -> bool:
    """True for the path roslynmap names a Unity project by (its ProjectSettings/ProjectVersion.txt)."""
    return bool(solution) and (solution == VERSION_FILE or str(solution).endswith("/" + VERSION_FILE))


def is_unity_project(folder: Path) -> bool:
    return (folder / "Assets").is_dir() and (folder / VERSION_FILE).is_file()


def editor_version(project: Path) -> tuple[int, int] | None:
    """(6000, 0) from `m_EditorVersion: 6000.0.52f1`; None when unreadable."""
    try:
        match = _VERSION.search((project / VERSION_FILE).read_text("utf-8", "replace"))
    except OSError:
        return None
    return (int(match.group(1)), int(match.group(2))) if match else None


def define_symbols(version: tuple[int, int] | None) -> list[str]:
    """What Unity's editor defines for every script, platforms aside: UNITY_EDITOR (its generated projects
    define it), DEBUG/TRACE, and the version symbols (UNITY_5_3_OR_NEWER ... up to the editor version)."""
    symbols = ["UNITY_EDITOR", "DEBUG", "TRACE", "UNITY_5_3_OR_NEWER", "UNITY_5_4_OR_NEWER", "UNITY_5_5_OR_NEWER",
               "UNITY_5_6_OR_NEWER"]
    major, minor = version or (2017, 1)
    for year, last in _MINORS.items():
        for release in range(1, last + 1):
            if (year, release) <= (major, minor) or major >= 6000:
                symbols.append(f"UNITY_{year}_{release}_OR_NEWER")
    if major >= 6000:
        symbols += [f"UNITY_{major}_{n}_OR_NEWER" for n in range(minor + 1)]
    symbols += [f"UNITY_{major}", f"UNITY_{major}_{minor}"]
    return symbols


@dataclass
class _Assembly:
    name: str
    path: str  # repo-relative: the .asmdef, or a folder for Unity's predefined assemblies (`Assets/`)
    folder: Path | None = None
    references: list[str] = field(default_factory=list)
    auto_referenced: bool = True
    editor_only: bool = False
    allow_unsafe: bool = False
    define_constraints: list[str] = field(default_factory=list)
    version_defines: list[dict[str, Any]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        # Unity writes some JSON with a byte order mark, which orjson refuses.
        value = orjson.loads(path.read_bytes().removeprefix(codecs.BOM_UTF8))
    except (OSError, orjson.JSONDecodeError):
        return None
    return value if isinstance(value, dict) else None


def _guid(meta: Path) -> str | None:
    try:
        match = _GUID.search(meta.read_text("utf-8", "replace"))
    except OSError:
        return None
    return match.group(1).lower() if match else None


def _walk(top: Path, root: Path) -> tuple[list[Path], list[Path], list[Path]]:
    """(.cs, .asmdef, .asmref) files under `top`, as Unity imports them: no hidden, `~` or cvs folders, no symbolic
    links, nothing whose real path leaves the repository (docs/security.md)."""
    sources: list[Path] = []
    asmdefs: list[Path] = []
    asmrefs: list[Path] = []
    for folder, dirs, files in os.walk(top):
        # Below Assets/ and a package's folder a `Logs/` or `bin/` folder is the game's own: Unity compiles it.
        parents = Path(folder).relative_to(root).parts
        dirs[:] = sorted(d for d in dirs if not is_skipped_folder(d, parents)
                         and not os.path.islink(os.path.join(folder, d)))
        here = Path(folder)
        for name in sorted(files):
            path = here / name
            if path.is_symlink():
                continue
            if name.endswith(".cs"):
                sources.append(path)
            elif name.endswith(".asmdef"):
                asmdefs.append(path)
            elif name.endswith(".asmref"):
                asmrefs.append(path)
    inside = root.resolve()

    def kept(paths: list[Path]) -> list[Path]:
        return [p for p in paths if inside in p.resolve().parents]
    return kept(sources), kept(asmdefs), kept(asmrefs)


def _owner(path: Path, owners: dict[Path, _Assembly]) -> _Assembly | None:
    for folder in path.parents:
        if folder in owners:
            return owners[folder]
    return None


def _predefined(rel_parts: tuple[str, ...]) -> str:
    """Unity's assembly for a script no .asmdef owns, from its path under Assets/."""
    editor = "Editor" in rel_parts[1:-1]
    firstpass = len(rel_parts) > 2 and rel_parts[1] in _FIRSTPASS
    return "Assembly-CSharp" + ("-Editor" if editor else "") + ("-firstpass" if firstpass else "")


_PREDEFINED_PATHS = {
    "Assembly-CSharp": "Assets/",
    "Assembly-CSharp-Editor": "Assets/**/Editor/",
    "Assembly-CSharp-firstpass": "Assets/Plugins/",
    "Assembly-CSharp-Editor-firstpass": "Assets/Plugins/**/Editor/",
}


def package_versions(project: Path) -> dict[str, str]:
    """Package name -> version: Packages/manifest.json's dependencies (a version, not a git URL or a file: path),
    embedded packages' package.json, and `Unity`, the editor's version (an .asmdef's versionDefines may name it)."""
    versions: dict[str, str] = {}
    manifest = _read_json(project / "Packages" / "manifest.json") or {}
    for name, version in (manifest.get("dependencies") or {}).items():
        if isinstance(version, str) and re.match(r"^\d+(\.\d+)*", version):
            versions[str(name)] = version
    packages = project / "Packages"
    if packages.is_dir():
        for folder in sorted(packages.iterdir()):
            # A linked package may live outside the repository (docs/security.md): not read.
            package = _read_json(folder / "package.json") if folder.is_dir() and not folder.is_symlink() else None
            if package and isinstance(package.get("name"), str) and isinstance(package.get("version"), str):
                versions[package["name"]] = package["version"]
    if (editor := editor_version(project)) is not None:
        versions["Unity"] = ".".join(map(str, editor))
    return versions


def _version(text: str) -> tuple[int, ...]:
    """`1.5` and `1.5.0` alike: four numbers, a pre-release suffix (`-pre.3`) left out."""
    numbers = [int(n) for n in re.findall(r"\d+", text.split("-", 1)[0])[:4]]
    return tuple(numbers + [0] * (4 - len(numbers)))


def in_range(version: str, expression: str) -> bool:
    """Unity's version expression: `1.2` (1.2 or newer), `[1.0,2.0)` / `(1.0,2.0]` (a range, brackets inclusive),
    `[1.5]` (exactly), one side left open (`[1.0,)`)."""
    have = _version(version)
    expression = expression.strip()
    if not expression or expression[0] not in "[(":
        return bool(expression) and have >= _version(expression)
    low_inclusive, high_inclusive = expression[0] == "[", expression[-1] == "]"
    inner = expression[1:-1]
    if "," not in inner:
        return have == _version(inner)
    low, high = (part.strip() for part in inner.split(",", 1))
    if low and (have < _version(low) or (have == _version(low) and not low_inclusive)):
        return False
    return not high or have < _version(high) or (have == _version(high) and high_inclusive)


def version_defines(rules: list[dict[str, Any]], versions: dict[str, str]) -> list[str]:
    """The symbols an .asmdef's versionDefines define: those whose package is here in a version its expression
    accepts (Boss Room's tests define NETCODEFORGAMEOBJECTS_1_5_2_OR_1_6_0 for netcode [1.5.2,1.6.0]; it has 2.4.3)."""
    out = []
    for rule in rules:
        name, expression, define = rule.get("name"), rule.get("expression", ""), rule.get("define")
        version = versions.get(str(name))
        if isinstance(define, str) and define and version is not None and in_range(version, str(expression or "")):
            out.append(define)
    return out


def layout(root: Path, marker: str) -> dict[str, Any]:
    """The bridge's spec for the Unity project whose ProjectVersion.txt is `marker` (repo-relative):
    {"unity_version", "defines", "projects": [{name, path, files, references, missing, allow_unsafe, editor}],
    "notes"}."""
    project = (root / marker).parent.parent
    prefix = project.relative_to(root).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    tops = [project / "Assets"]
    packages = project / "Packages"
    if packages.is_dir():
        tops += sorted(p for p in packages.iterdir()
                       if p.is_dir() and not p.is_symlink() and (p / "package.json").is_file())
    sources: list[Path] = []
    asmdefs: list[Path] = []
    asmrefs: list[Path] = []
    for top in tops:
        found = _walk(top, root)
        sources += found[0]
        asmdefs += found[1]
        asmrefs += found[2]

    def rel(path: Path) -> str:
        return path.relative_to(root).as_posix()

    notes: list[str] = []
    owners: dict[Path, _Assembly] = {}
    by_name: dict[str, _Assembly] = {}
    guids: dict[str, str] = {}
    no_meta: list[str] = []  # assembly definitions without the .meta file holding their guid
    for path in asmdefs:
        spec = _read_json(path)
        name = spec.get("name") if spec else None
        if not isinstance(name, str) or not name or name in by_name:
            notes.append(f"{rel(path)}: not a readable assembly definition (or its name is taken): its scripts "
                         "go to the assembly of the folder above")
            continue
        assert spec is not None
        platforms = spec.get("includePlatforms") or []
        assembly = _Assembly(
            name=name, path=rel(path), folder=path.parent,
            references=[r for r in spec.get("references") or [] if isinstance(r, str)],
            auto_referenced=spec.get("autoReferenced", True) is not False,
            editor_only=platforms == ["Editor"],
            allow_unsafe=spec.get("allowUnsafeCode") is True,
            define_constraints=[c for c in spec.get("defineConstraints") or [] if isinstance(c, str)],
            version_defines=[d for d in spec.get("versionDefines") or [] if isinstance(d, dict)],
        )
        owners[path.parent] = by_name[name] = assembly
        if guid := _guid(path.with_name(path.name + ".meta")):
            guids[guid] = name
        else:
            no_meta.append(rel(path))
    for path in asmrefs:  # an .asmref lends its folder to another assembly definition
        target = str((_read_json(path) or {}).get("reference") or "")
        name = guids.get(target[5:].lower(), "") if target.startswith("GUID:") else target
        if name in by_name and path.parent not in owners:
            owners[path.parent] = by_name[name]

    predefined: dict[str, _Assembly] = {}
    loose = 0
    assets = project / "Assets"
    for path in sources:
        owner = _owner(path, owners)
        if owner is None:
            if assets not in path.parents:
                loose += 1  # a package's script outside any .asmdef: Unity does not compile it either
                continue
            name = _predefined(path.relative_to(assets.parent).parts)
            owner = predefined.setdefault(name, _Assembly(name=name, path=prefix + _PREDEFINED_PATHS[name],
                                                          editor_only="Editor" in name))
        owner.files.append(rel(path))
    if loose:
        notes.append(f"{loose} script(s) under Packages/ belong to no .asmdef: Unity does not compile them, "
                     "and they are not indexed")

    def resolve(reference: str) -> str:
        return guids.get(reference[5:].lower(), reference) if reference.startswith("GUID:") else reference

    # Unity's predefined assemblies see every auto-referenced assembly definition (the runtime ones only the
    # runtime ones), and each other in compile order.
    auto = [a.name for a in by_name.values() if a.auto_referenced]
    runtime_auto = [a.name for a in by_name.values() if a.auto_referenced and not a.editor_only]
    order = ["Assembly-CSharp-firstpass", "Assembly-CSharp-Editor-firstpass", "Assembly-CSharp",
             "Assembly-CSharp-Editor"]
    for name, assembly in predefined.items():
        earlier = order[:order.index(name)]
        if "Editor" not in name:
            earlier = [e for e in earlier if "Editor" not in e]
        assembly.references = [e for e in earlier if e in predefined] + (auto if assembly.editor_only else runtime_auto)

    versions = package_versions(project)
    projects: list[dict[str, Any]] = []
    for assembly in [*by_name.values(), *(predefined[n] for n in order if n in predefined)]:
        names = [resolve(r) for r in assembly.references]
        projects.append({
            "name": assembly.name,
            "path": assembly.path,
            "files": assembly.files,
            "references": sorted({n for n in names if n in by_name or n in predefined} - {assembly.name}),
            "missing": sorted({n for n in names if n not in by_name and n not in predefined}),
            "allow_unsafe": assembly.allow_unsafe,
            "editor": assembly.editor_only,
            "define_constraints": assembly.define_constraints,
            "defines": version_defines(assembly.version_defines, versions),
        })
    unresolved = sorted({m for p in projects for m in p["missing"] if m.startswith("GUID:")})
    if unresolved and no_meta:
        # A `GUID:` reference to one of them reads as an assembly missing from the repository: said, not guessed.
        listed = ", ".join(no_meta[:3]) + (f" and {len(no_meta) - 3} more" if len(no_meta) > 3 else "")
        notes.append(f"{len(unresolved)} GUID reference(s) resolve to no assembly definition here; without the .meta "
                     f"file holding their guid: {listed}, which may be the ones referenced")
    notes.extend(_break_cycles(projects))
    return {
        "unity_version": versions.get("Unity"),
        "defines": define_symbols(editor_version(project)),
        "projects": projects,
        "notes": notes,
    }


def _break_cycles(projects: list[dict[str, Any]]) -> list[str]:
    """Unity refuses assembly definitions that reference each other in a cycle, and so does a Roslyn workspace (it
    would never finish binding): each reference closing a cycle is dropped, in project order, and said."""
    by_name = {p["name"]: p for p in projects}
    notes: list[str] = []

    def reaches(start: str, goal: str) -> bool:
        seen, pending = set(), [start]
        while pending:
            name = pending.pop()
            if name == goal:
                return True
            if name not in seen:
                seen.add(name)
                pending.extend(by_name[name]["references"] if name in by_name else [])
        return False

    for project in projects:
        for target in list(project["references"]):
            if reaches(target, project["name"]):
                project["references"].remove(target)
                notes.append(f"{project['path']}: its reference to {target} closes a cycle (Unity refuses one): left "
                             "out")
    return notes


def unity_spec(root: Path, marker: str, others: list[str]) -> str:
    """layout() as the JSON the bridge's IndexSession.OpenUnity reads, with the solutions and projects this Unity
    project was chosen over (`others`, discovery.other_candidates)."""
    return orjson.dumps({**layout(root, marker), "chosen_over": others}).decode()

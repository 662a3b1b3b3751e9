"""Projects published as NuGet packages, as facts (kind `PublishedPackage`), read from the project files, the
Directory.Build.props files MSBuild imports for them and the repository's .nuspec files.

symbols_unused keeps a published library's public API out of "unused" even when an app of the solution references
the library (CAP's samples reference its transports: `UseRedis()` and 25 more were "unused"). The bridge does not
expose MSBuild properties; like ProjectReference facts (roslyn/projrefs.py) this reads the files beside the load: no
schema change. The SDK makes every project packable by default, so only what a project says counts:
`PackageId`, `GeneratePackageOnBuild` or `IsPackable` true, NuGet metadata (`PackageTags`, `PackageLicense*`,
`PackageProjectUrl`, `PackageReadmeFile`, `PackageIcon`), a `NuspecFile`, or a .nuspec packing its assembly
(Hangfire's nuspecs/); an unconditional `IsPackable` false, the last one MSBuild reads, says it is not published.
A property under a `Condition` (or in a `<Choose>` branch) counts only as evidence for publishing (whether it holds
is not evaluated: a conditional `IsPackable` false, usually for test projects, is ignored).
Record: (kind, None, project index, the file with the evidence, its line, 1, "high", package id, {"evidence"}).
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any, NamedTuple

from roslynmap.model.readable import is_readable, repository_files
from roslynmap.model.records import FactRecord

_PROPERTY = re.compile(r"<(PackageId|IsPackable|GeneratePackageOnBuild|NuspecFile|PackageTags|PackageLicenseExpression"
                       r"|PackageLicenseFile|PackageProjectUrl|PackageReadmeFile|PackageIcon|AssemblyName)\b([^>]*)>"
                       r"([^<]*)</\1\s*>", re.I)
_IMPORT = re.compile(r"<Import\b[^>]*\bProject\s*=\s*\"([^\"]+)\"", re.I)
_GROUP = re.compile(r"<(/?)PropertyGroup\b([^>]*)>", re.I)
_CHOOSE = re.compile(r"<Choose\b.*?</Choose\s*>", re.I | re.S)
_NUSPEC_ID = re.compile(r"<id>\s*([^<\s]+)\s*</id>", re.I)
_NUSPEC_FILE = re.compile(r"<file\b[^>]*\bsrc\s*=\s*\"([^\"]+\.dll)\"", re.I)
# In order of strength: the first the project has is its fact's evidence.
_EVIDENCE = ("PackageId", "GeneratePackageOnBuild", "IsPackable", "NuspecFile", "PackageTags",
             "PackageLicenseExpression", "PackageLicenseFile", "PackageProjectUrl", "PackageReadmeFile", "PackageIcon")
_SPELLED = {name.lower(): name for name in _EVIDENCE}
_MAX_IMPORTS = 16


class _Property(NamedTuple):
    name: str  # lower case
    value: str
    conditional: bool
    file: str  # repo-relative
    line: int


def published_package_facts(root: Path, projects: list[dict[str, Any]]) -> list[FactRecord]:
    nuspecs = _nuspecs(root)
    rows: list[FactRecord] = []
    for project in projects:
        rel = str(project.get("path") or "")
        if not rel.endswith("proj") or not is_readable(root, rel):
            continue
        properties: list[_Property] = []
        props = _directory_build_props(root, posixpath.dirname(rel))
        seen: set[str] = set()
        if props:
            _read(root, props, properties, seen)
        _read(root, rel, properties, seen)
        packable = [p for p in properties if p.name == "ispackable" and not p.conditional]
        if packable and packable[-1].value.strip().lower() == "false":
            continue
        last = {p.name: p for p in properties}  # a project's own PackageId overrides its props' (MSBuild's order)
        evidence = sorted((p for p in last.values() if _is_evidence(p)),
                          key=lambda p: _EVIDENCE.index(_SPELLED[p.name]))
        name = str(project.get("name") or "")
        assembly = next((p.value.strip() for p in reversed(properties)
                         if p.name == "assemblyname" and not p.conditional and "$(" not in p.value), name)
        package_id = next((p.value.strip() for p in reversed(properties) if p.name == "packageid"
                           and "$(" not in p.value and p.value.strip()), assembly)
        if evidence:
            first = evidence[0]
            rows.append(FactRecord("PublishedPackage", None, project["index"], first.file, first.line, 1, "high",
                                   package_id, json.dumps({"evidence": _SPELLED[first.name]})))
        elif (found := nuspecs.get(assembly.lower()) or nuspecs.get(name.lower())) is not None:
            rows.append(FactRecord("PublishedPackage", None, project["index"], found[1], found[2], 1, "high",
                                   found[0], json.dumps({"evidence": "nuspec"})))
    return rows


def _is_evidence(p: _Property) -> bool:
    if p.name in ("ispackable", "generatepackageonbuild"):
        return p.value.strip().lower() == "true"
    return p.name in _SPELLED and bool(p.value.strip())


def _directory_build_props(root: Path, folder: str) -> str | None:
    """The Directory.Build.props MSBuild imports for a project in `folder`: the nearest at or above it, in the
    repository."""
    current = folder
    while True:
        candidate = posixpath.join(current, "Directory.Build.props") if current else "Directory.Build.props"
        if is_readable(root, candidate):
            return candidate
        if not current:
            return None
        current = posixpath.dirname(current)


def _read(root: Path, rel: str, out: list[_Property], seen: set[str]) -> None:
    """The package properties of one MSBuild file, in the order MSBuild reads them: an `<Import>` of another file
    (a relative path, or `GetPathOfFileAbove('Directory.Build.props', ...)`: the next one up) where it stands."""
    if rel in seen or len(seen) >= _MAX_IMPORTS or not is_readable(root, rel):
        return
    seen.add(rel)
    text = (root / rel).read_text(encoding="utf-8-sig", errors="replace")
    folder = posixpath.dirname(rel)
    items = [(m.start(), m) for m in _PROPERTY.finditer(text)] + [(m.start(), m) for m in _IMPORT.finditer(text)]
    groups = list(_GROUP.finditer(text))
    chooses = list(_CHOOSE.finditer(text))
    for start, match in sorted(items, key=lambda item: item[0]):
        if match.re is _IMPORT:
            if (imported := _imported(root, folder, match.group(1))) is not None:
                _read(root, imported, out, seen)
            continue
        group = next((g for g in reversed(groups) if g.start() < start), None)
        # A `<Choose>`'s `<When Condition>`/`<Otherwise>` branches are conditions too (WPF UI's props set IsPackable
        # false in the Otherwise of `$(IsCoreProject)`: read as unconditional, its published library was none).
        conditional = "condition" in match.group(2).lower() or (
            group is not None and not group.group(1) and "condition" in group.group(2).lower()) or any(
            c.start() < start < c.end() for c in chooses)
        out.append(_Property(match.group(1).lower(), match.group(3), conditional, rel,
                             text.count("\n", 0, start) + 1))


def _imported(root: Path, folder: str, project: str) -> str | None:
    """The repo-relative file an `<Import Project="...">` names, when it can be told without evaluating MSBuild."""
    if "GetPathOfFileAbove" in project and "Directory.Build.props" in project:
        # CAP's and Hangfire's src/Directory.Build.props chain to the one above them.
        return _directory_build_props(root, posixpath.dirname(folder)) if folder else None
    path = project.replace("$(MSBuildThisFileDirectory)", "").replace("\\", "/")
    if "$(" in path or "*" in path or not path.endswith(".props"):
        return None
    target = posixpath.normpath(posixpath.join(folder, path))
    return None if target.startswith(("../", "/")) or target == ".." else target


def _nuspecs(root: Path) -> dict[str, tuple[str, str, int]]:
    """Assembly or package name (lower case) -> (package id, nuspec, line) for every .nuspec of the repository:
    its `<id>`, and each `.dll` its `<file src>` packs (Hangfire.Core.nuspec packs `net451\\Hangfire.Core.dll`)."""
    found: dict[str, tuple[str, str, int]] = {}
    for path in repository_files(root, ["*.nuspec"]):
        if any(path.parent.glob("*.nupkg")) or (path.parent / ".nupkg.metadata").exists():
            continue  # a package restore unpacked (Hangfire's NuGet.config puts the package folder in the repository)
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        package = _NUSPEC_ID.search(text)
        if package is None or "$" in package.group(1):
            continue
        found.setdefault(package.group(1).lower(), (package.group(1), rel, text.count("\n", 0, package.start()) + 1))
        for dll in _NUSPEC_FILE.finditer(text):
            name = posixpath.basename(dll.group(1).replace("\\", "/"))[:-len(".dll")]
            found.setdefault(name.lower(), (package.group(1), rel, text.count("\n", 0, dll.start()) + 1))
    return found

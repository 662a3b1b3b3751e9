"""Finds what to load: a Unity project, then `.slnx`, then `.sln`, then a lone project (DESIGN §4). Pure file
system."""

from __future__ import annotations

from pathlib import Path

from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.model.hints import solution_hint
from roslynmap.roslyn.unity import VERSION_FILE, is_unity_marker, is_unity_project

SKIP_DIRS = {"bin", "obj", ".git", "node_modules", ".vs", ".idea", "packages"}
MAX_DEPTH = 4


def _candidates(root: Path) -> list[Path]:
    found: list[Path] = []
    frontier = [root]
    for _ in range(MAX_DEPTH + 1):
        next_level: list[Path] = []
        for folder in frontier:
            try:
                entries = sorted(folder.iterdir())
            except OSError:
                continue
            for entry in entries:
                if entry.name == "ProjectSettings" and is_unity_project(folder):
                    found.append(folder / VERSION_FILE)  # a Unity project: its layout is what it compiles
                if entry.is_dir():
                    if entry.name not in SKIP_DIRS and not entry.name.startswith("."):
                        next_level.append(entry)
                elif entry.suffix in {".slnx", ".sln", ".csproj"}:
                    found.append(entry)
        frontier = next_level
    return found


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def ensure_inside(root: Path, path: Path) -> Path:
    try:
        resolved = path.resolve()
    except (OSError, ValueError, RuntimeError) as exc:  # a name too long, a symlink loop
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"'{str(path)[:200]}' is not a usable path: {exc}.",
                             "Pass a repo-relative .slnx/.sln/.csproj path, e.g. \"src/App/App.csproj\".") from exc
    if resolved != root and root not in resolved.parents:
        raise RoslynMapError(
            ErrorCode.PATH_OUTSIDE_REPO,
            f"'{path}' is outside the repository {root}.",
            "Pass a path inside the repository, relative to its root (e.g. \"src/App/App.csproj\").",
        )
    return resolved


def _unity_choice(root: Path, found: list[Path]) -> Path | None:
    """The shallowest Unity project's ProjectVersion.txt (or the .sln Unity generated beside its Assets/, which
    binds Unity's own assemblies), even when an unrelated .csproj or .sln sits elsewhere in the repository
    (Boss Room's dotnet-tools/netcode.standards.csproj would otherwise stand for the whole game)."""
    markers = [p for p in found if is_unity_marker(_rel(p, root))]
    if not markers:
        return None
    shallowest = min(len(p.relative_to(root).parts) for p in markers)
    top = [p for p in markers if len(p.relative_to(root).parts) == shallowest]
    if len(top) > 1:
        raise RoslynMapError(
            ErrorCode.AMBIGUOUS,
            f"{len(top)} Unity projects sit at the same depth; roslynmap will not guess.",
            solution_hint([_rel(p, root) for p in top]),
            candidates=[{"solution_path": _rel(p, root)} for p in top],
        )
    unity = top[0].parent.parent
    # A solution shallower than the Unity project is the repository's own (MessagePack-CSharp's MessagePack.sln at the
    # root beside src/MessagePack.UnityClient): the Unity client is one part of it, not the whole.
    depth = len(unity.relative_to(root).parts)
    if any(p.suffix in {".slnx", ".sln"} and len(p.parent.relative_to(root).parts) < depth for p in found):
        return None
    generated = [p for p in found if p.suffix in {".slnx", ".sln"} and p.parent == unity]
    # A committed .sln whose generated projects git ignored would load nothing: only with its .csproj files.
    if len(generated) == 1 and any(p.suffix == ".csproj" and p.parent == unity for p in found):
        return generated[0]
    return top[0]


def other_candidates(root: Path, marker: Path) -> list[str]:
    """The solutions and projects a Unity project was chosen over (outside its Assets/ and Packages/), repo-relative."""
    inside = [marker.parent.parent / "Assets", marker.parent.parent / "Packages"]
    return [_rel(p, root) for p in _candidates(root)
            if not is_unity_marker(_rel(p, root)) and not any(folder in p.parents for folder in inside)]


def find_solution(root: Path, requested: str | None = None) -> Path:
    """The solution or project to index; a clear error that lists what exists when none fits."""
    if requested:
        path = ensure_inside(root, root / requested)
        if is_unity_marker(path.relative_to(root).as_posix()) and is_unity_project(path.parent.parent):
            return path
        if not path.is_file() or path.suffix not in {".slnx", ".sln", ".csproj"}:
            listed = [_rel(p, root) for p in _candidates(root)][:10]
            raise RoslynMapError(
                ErrorCode.INVALID_ARGUMENT,
                f"'{requested}' is not a .slnx, .sln or .csproj file (or a Unity project's {VERSION_FILE}) in the "
                "repository.",
                f"Solutions and projects found: {listed}" if listed else "No solution or project exists here.",
            )
        return path
    found = _candidates(root)
    unity = _unity_choice(root, found)
    if unity is not None:
        return unity
    for suffix in (".slnx", ".sln"):
        matches = [p for p in found if p.suffix == suffix]
        if matches:
            shallowest = min(len(p.relative_to(root).parts) for p in matches)
            top = [p for p in matches if len(p.relative_to(root).parts) == shallowest]
            if len(top) == 1:
                return top[0]
            raise RoslynMapError(
                ErrorCode.AMBIGUOUS,
                f"{len(top)} {suffix} files sit at the same depth; roslynmap will not guess.",
                solution_hint([_rel(p, root) for p in top]),
                candidates=[{"solution_path": _rel(p, root)} for p in top],
            )
    projects = [p for p in found if p.suffix == ".csproj"]
    if len(projects) == 1:
        return projects[0]
    if projects:
        raise RoslynMapError(
            ErrorCode.AMBIGUOUS,
            f"No solution file, and {len(projects)} projects: roslynmap will not guess which to index.",
            solution_hint([_rel(p, root) for p in projects[:10]], more=len(projects) > 10) + " Or add a .slnx.",
            candidates=[{"solution_path": _rel(p, root)} for p in projects[:10]],
        )
    others = sorted({p.suffix for p in root.rglob("*.*proj")})
    raise RoslynMapError(
        ErrorCode.NOT_FOUND,
        f"No .slnx, .sln or .csproj found under {root} (searched {MAX_DEPTH} levels deep).",
        f"Only these project types exist: {others}." if others else
        "Point repo_path at the root of a .NET repository, or pass solution_path.",
    )

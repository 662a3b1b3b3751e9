"""A global.json that pins a .NET SDK this machine does not have.

Many repositories pin an SDK band (`"version": "9.0.100", "rollForward": "latestFeature"`). On a machine with
only a newer SDK, `dotnet` refuses every command under that folder, and MSBuildWorkspace's build host (which
picks its MSBuild from each project's folder, through MSBuildLocator) fails the whole load. MSBuild's own SDK
resolver, once running, ignores an unmet pin. So an unmet pin is worked around rather than fatal:

- `dotnet restore` runs from a folder no global.json governs, on the repository's real paths;
- the solution is opened through a mirror of the repository in the temp directory: the same tree, made of
  symbolic links, without that one global.json. Paths relative to the mirror are the repository's own, so
  everything stored is unchanged; files are read through the links.

The index says so (a workspace diagnostic), since a build with the pinned SDK could differ. Without symbolic
links (some Windows setups) the load fails with the host's own message, as before.
"""

from __future__ import annotations

import atexit
import functools
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

_NOT_FOUND = "A compatible .NET SDK was not found"
_REQUESTED = re.compile(r"Requested SDK version:\s*(\S+)")
_GLOBAL_JSON = re.compile(r"global\.json file:\s*(.+?)\s*$", re.MULTILINE)
_TIMEOUT_S = 60


@dataclass(frozen=True)
class UnmetSdkPin:
    """What global.json asks for, what is used instead, and where `dotnet` runs free of the pin."""

    requested: str
    global_json: Path
    used: str
    neutral_folder: Path

    def warning(self, repo_root: Path) -> str:
        try:
            shown = self.global_json.resolve().relative_to(repo_root.resolve()).as_posix()
        except ValueError:
            shown = str(self.global_json)
        return (f"{shown} pins .NET SDK {self.requested}, which is not installed: restored and loaded with "
                f"SDK {self.used} instead (a build with the pinned SDK may differ).")


def unmet_pin(folder: Path) -> UnmetSdkPin | None:
    """The pin governing `folder` when `dotnet` cannot meet it there; None when it can (or there is none).

    Asks `dotnet --version` itself, so rollForward, allowPrerelease and every other rule of global.json are
    judged by the host that applies them."""
    pinned = _dotnet_version(folder)
    if pinned.ok or _NOT_FOUND not in pinned.output:
        return None
    found = _GLOBAL_JSON.search(pinned.output)
    if found is None:
        return None
    neutral = _neutral_folder()
    used = _dotnet_version(neutral)
    if not used.ok:
        return None  # no SDK works even there: the original error stands
    requested = _REQUESTED.search(pinned.output)
    return UnmetSdkPin(
        requested=requested.group(1) if requested else "(unknown)",
        global_json=Path(found.group(1)),
        used=used.output.strip().splitlines()[0],
        neutral_folder=neutral,
    )


def unmet_pin_of_solution(solution_folder: Path) -> UnmetSdkPin | None:
    """The unmet pin governing the solution's folder, else the first one (in path order) governing a folder below
    it: dapr-traffic-control's src/global.json pins SDK 8.0.0 for the projects under src/, and a solution made beside
    src/ (the repository has none) is governed by no pin, while the build host, which picks its MSBuild from each
    project's folder, meets that one and fails the whole load."""
    pin = unmet_pin(solution_folder)
    if pin is not None:
        return pin
    for folder in _global_json_folders(solution_folder):
        pin = unmet_pin(folder)
        if pin is not None:
            return pin
    return None


def _global_json_folders(root: Path) -> list[Path]:
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _NOT_SOURCE)
        if "global.json" in files and Path(folder) != root:
            found.append(Path(folder))
    return found


def mirror_without_pin(repo_root: Path, pin: UnmetSdkPin) -> Path | None:
    """A fresh tree of symbolic links in the neutral folder standing for `repo_root`, in which the pinning
    global.json is absent (when it lies inside the repository; one above it is left behind anyway).

    The folders that hold a project or solution, and the folders above them, are real folders of links:
    the build host resolves a project's folder to its real path before looking for global.json, so a link
    to the folder itself would lead it back. Fresh per load, so files added since the last load are seen
    and a session still reading through an older mirror keeps it. None when links cannot be made."""
    root = repo_root.resolve()
    mirrors = pin.neutral_folder / "mirrors"
    mirrors.mkdir(exist_ok=True)
    mirror = Path(tempfile.mkdtemp(dir=mirrors)) / root.name
    hidden = pin.global_json.resolve()
    real_folders = _project_folders(root) | {hidden.parent}
    keep = {a for folder in real_folders if folder.is_relative_to(root) for a in (folder, *folder.parents)}
    try:
        _link_tree(root, mirror, hidden, keep)
    except OSError:
        shutil.rmtree(mirror.parent, ignore_errors=True)
        return None
    return mirror


_PROJECT_SUFFIXES = (".csproj", ".vbproj", ".fsproj", ".proj", ".sln", ".slnx", ".slnf")
_NOT_SOURCE = {".git", "bin", "obj", "node_modules"}


def _project_folders(root: Path) -> set[Path]:
    found: set[Path] = set()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in _NOT_SOURCE]
        if any(f.lower().endswith(_PROJECT_SUFFIXES) for f in files):
            found.add(Path(folder))
    return found


def _link_tree(real: Path, mirror: Path, hidden: Path, keep: set[Path]) -> None:
    """`mirror` as a real folder of links to `real`'s entries except `hidden`; folders in `keep` are
    mirrored the same way instead of linked."""
    mirror.mkdir(parents=True)
    for entry in os.scandir(real):
        path = Path(entry.path)
        if path == hidden:
            continue
        if path in keep and entry.is_dir(follow_symlinks=False):
            _link_tree(path, mirror / entry.name, hidden, keep)
        else:
            (mirror / entry.name).symlink_to(path, target_is_directory=entry.is_dir())


@dataclass(frozen=True)
class _Version:
    ok: bool
    output: str


def _dotnet_version(folder: Path) -> _Version:
    try:
        done = subprocess.run(["dotnet", "--version"], capture_output=True, text=True, timeout=_TIMEOUT_S,
                              check=False, stdin=subprocess.DEVNULL, cwd=folder)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return _Version(False, str(exc))
    return _Version(done.returncode == 0, done.stdout + done.stderr)


@functools.cache
def _neutral_folder() -> Path:
    """One fresh folder under the system temp directory per process, removed at exit (links only: the
    repository they point into is never touched)."""
    folder = Path(tempfile.mkdtemp(prefix="roslynmap-sdk-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder

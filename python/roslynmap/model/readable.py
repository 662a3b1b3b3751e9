"""Which files roslynmap may read (DESIGN §11), the one rule every layer applies: tools, overlay
refresh, appsettings facts. A file is read only when its real path (every symlink followed) lies in
the repository and outside version-control internals (.git/, .hg/, .svn/), and it is a regular file
of sane size (a FIFO would block the read forever)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from roslynmap.model.errors import ErrorCode, RoslynMapError

VCS_DIRS = frozenset({".git", ".hg", ".svn"})
MAX_READ_BYTES = 16 * 1024 * 1024  # a source file; anything bigger is not code to read whole


def unusable(path: str, exc: BaseException) -> RoslynMapError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"'{path[:200]}' is not a usable path: {reason}.",
                          "Pass a repo-relative file path, e.g. file_path=\"src/Api/OrdersController.cs\".")


def outside(path: str, root: Path) -> RoslynMapError:
    return RoslynMapError(
        ErrorCode.PATH_OUTSIDE_REPO,
        f"'{path[:300]}' is outside the repository {root}.",
        "Use a path relative to the repository root, e.g. file_path=\"src/Api/OrdersController.cs\".",
    )


# A document the compilation takes from outside the repository (Microsoft.NET.Test.Sdk's Program.cs, a
# package's content files) is indexed under a `../` (or absolute) path: bound like the others, but not the
# repository's code, so not an entry point and not searched as its text.
IN_REPOSITORY_SQL = "(substr({path}, 1, 3) <> '../' AND substr({path}, 1, 1) <> '/')"


def is_package_source(rel: str) -> bool:
    return rel.startswith("../") or rel.startswith("/")


def is_vcs_internal(rel: str) -> bool:
    """True for anything under .git/, .hg/ or .svn/ (case-insensitively: macOS and Windows file systems)."""
    return any(part.lower() in VCS_DIRS for part in rel.replace("\\", "/").split("/"))


def vcs_refusal(path: str) -> RoslynMapError:
    return RoslynMapError(ErrorCode.PATH_OUTSIDE_REPO,
                          f"'{path[:300]}' is version-control internals (.git/, .hg/, .svn/), which roslynmap "
                          "never reads.", "Read source files: e.g. file_path=\"src/App/Program.cs\".")


def readable_file(root: Path, rel: str) -> Path:
    """The file behind a repo-relative path, for reading: refused (PATH_OUTSIDE_REPO) when it is
    version-control internals or its real path leaves the repository (a symlink pointing outside);
    NOT_FOUND when missing; INVALID_ARGUMENT when it is not a regular file (a directory, a FIFO that
    would block the read forever) or too big."""
    if is_vcs_internal(rel):
        raise vcs_refusal(rel)
    try:
        real_root = os.path.realpath(root)
        real = os.path.realpath(os.path.join(real_root, rel))
    except (OSError, ValueError) as exc:
        raise unusable(rel, exc) from exc
    if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
        raise outside(rel, root)
    if is_vcs_internal(os.path.relpath(real, real_root)):
        raise vcs_refusal(rel)
    try:
        info = os.stat(real)
    except FileNotFoundError as exc:
        raise RoslynMapError(
            ErrorCode.NOT_FOUND,
            f"'{rel}' does not exist in the working tree.",
            "It may have been deleted since indexing; call symbols_search to find where the code lives now.",
        ) from exc
    except (OSError, ValueError) as exc:
        raise unusable(rel, exc) from exc
    if stat.S_ISDIR(info.st_mode):
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"'{rel}' is a directory.", "Pass a file path.")
    if not stat.S_ISREG(info.st_mode):
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"'{rel}' is not a regular file.", "Pass a source file.")
    if info.st_size > MAX_READ_BYTES:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT,
                             f"'{rel}' is {info.st_size // (1024 * 1024)} MB; roslynmap reads files up to "
                             f"{MAX_READ_BYTES // (1024 * 1024)} MB.", "Read a generated or data file another way.")
    return Path(real)


def is_readable(root: Path, rel: str) -> bool:
    """`readable_file` as a yes/no, for readers that skip what they may not read (excerpts, indexing)."""
    try:
        readable_file(root, rel)
    except RoslynMapError:
        return False
    return True


# Build output and dependencies: files there are copies or generated, never the repository's configuration.
BUILD_DIRS = frozenset({"bin", "obj", ".git", "node_modules"})


def in_project_folders(rel: str, project_files: Iterable[str] | None) -> bool:
    """Whether a repository file lies in the folder of one of the solution's projects (`project_files`, repo-relative
    project file paths; None: no scope). Practical.CleanArchitecture keeps apps outside the indexed solution beside
    it: their appsettings and Razor pages are not the solution's."""
    if project_files is None:
        return True
    for project in project_files:
        folder = PurePosixPath(project).parent.as_posix()
        if folder in ("", ".") or rel.startswith(folder + "/"):
            return True
    return False


def repository_files(root: Path, patterns: Iterable[str]) -> list[Path]:
    """Files matching any glob (`appsettings*.json`, `Properties/launchSettings.json`) anywhere in the repository,
    sorted, outside build output and only those `is_readable` allows (a symlink out is never read)."""
    found = {path for pattern in patterns for path in root.rglob(pattern)}
    return sorted(path for path in found if not BUILD_DIRS.intersection(path.relative_to(root).parts)
                  and is_readable(root, path.relative_to(root).as_posix()))

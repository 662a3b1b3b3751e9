"""User-supplied paths made repo-relative and checked to stay inside the repository (DESIGN §11).

Two rules: a path must not leave the repository, and a file is only READ when its real path (every
symlink followed) lies inside the repository and outside version-control internals (.git/, .hg/,
.svn/). Filters (a `file_path` prefix) only need the first rule.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from roslynmap.model.errors import ErrorCode, RoslynMapError

VCS_DIRS = frozenset({".git", ".hg", ".svn"})
MAX_READ_BYTES = 16 * 1024 * 1024  # a source file; anything bigger is not code to read whole


def _unusable(path: str, exc: BaseException) -> RoslynMapError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"'{path[:200]}' is not a usable path: {reason}.",
                          "Pass a repo-relative file path, e.g. file_path=\"src/Api/OrdersController.cs\".")


def _outside(path: str, root: Path) -> RoslynMapError:
    return RoslynMapError(
        ErrorCode.PATH_OUTSIDE_REPO,
        f"'{path[:300]}' is outside the repository {root}.",
        "Use a path relative to the repository root, e.g. file_path=\"src/Api/OrdersController.cs\".",
    )


def is_vcs_internal(rel: str) -> bool:
    """True for anything under .git/, .hg/ or .svn/ (case-insensitively: macOS and Windows file systems)."""
    return any(part.lower() in VCS_DIRS for part in rel.replace("\\", "/").split("/"))


def _vcs_refusal(path: str) -> RoslynMapError:
    return RoslynMapError(ErrorCode.PATH_OUTSIDE_REPO,
                          f"'{path[:300]}' is version-control internals (.git/, .hg/, .svn/), which roslynmap "
                          "never reads.", "Read source files: e.g. file_path=\"src/App/Program.cs\".")


def repo_relative(root: Path, path: str, *, must_exist: bool = False) -> str:
    """`./src\\A.cs`, `/abs/repo/src/A.cs` and `src/A.cs` all become `src/A.cs`; escapes are refused.
    With must_exist the path is about to be read: it must be a readable file (see `readable_file`)."""
    text = path.strip().replace("\\", "/")
    try:
        candidate = Path(text) if Path(text).is_absolute() else root / text
        resolved = candidate.resolve()
    except (OSError, ValueError, RuntimeError) as exc:  # NUL, ENAMETOOLONG, a symlink loop
        raise _unusable(path, exc) from exc
    if resolved != root and root not in resolved.parents:
        raise _outside(path, root)
    rel = resolved.relative_to(root).as_posix()
    if must_exist:
        if is_vcs_internal(rel) or is_vcs_internal(text):
            raise _vcs_refusal(path)
        try:
            exists = resolved.is_file()
        except OSError as exc:
            raise _unusable(path, exc) from exc
        if not exists:
            raise RoslynMapError(
                ErrorCode.NOT_FOUND,
                f"No file '{path[:300]}' in the repository.",
                "Find files with symbols_search(file_path=\"src/\") or check the spelling and case.",
            )
    return "" if rel == "." else rel + ("/" if text.endswith("/") and rel else "")


def readable_file(root: Path, rel: str) -> Path:
    """The file behind a repo-relative path, for reading: refused (PATH_OUTSIDE_REPO) when it is
    version-control internals or its real path leaves the repository (a symlink pointing outside);
    NOT_FOUND when missing; INVALID_ARGUMENT when it is not a regular file (a directory, a FIFO that
    would block the read forever) or too big."""
    if is_vcs_internal(rel):
        raise _vcs_refusal(rel)
    try:
        real_root = os.path.realpath(root)
        real = os.path.realpath(os.path.join(real_root, rel))
    except (OSError, ValueError) as exc:
        raise _unusable(rel, exc) from exc
    if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
        raise _outside(rel, root)
    if is_vcs_internal(os.path.relpath(real, real_root)):
        raise _vcs_refusal(rel)
    try:
        info = os.stat(real)
    except FileNotFoundError as exc:
        raise RoslynMapError(
            ErrorCode.NOT_FOUND,
            f"'{rel}' does not exist in the working tree.",
            "It may have been deleted since indexing; call symbols_search to find where the code lives now.",
        ) from exc
    except (OSError, ValueError) as exc:
        raise _unusable(rel, exc) from exc
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

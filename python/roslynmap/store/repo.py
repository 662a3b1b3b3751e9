"""Repository identity: root, repo id (shared by teammates' clones), HEAD commit, branch, cleanliness."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from roslynmap.model.errors import ErrorCode, RoslynMapError


@dataclass(frozen=True)
class RepoInfo:
    root: Path
    repo_id: str
    commit: str
    branch: str | None
    is_git: bool
    dirty_files: tuple[str, ...]
    notes: tuple[str, ...] = ()  # warnings about how the repository was identified (a bounded walk)

    @property
    def clean(self) -> bool:
        return not self.dirty_files


def _git_bytes(root: Path, *args: str) -> bytes | None:
    """git's stdout as is (None when git fails): -z output must not be stripped or decoded whole."""
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def _git(root: Path, *args: str) -> str | None:
    out = _git_bytes(root, *args)
    return None if out is None else out.decode("utf-8", "replace").strip()


# Azure DevOps names one repository four ways; all become dev.azure.com/<org>/<project>/<repo>.
_AZURE_FORMS = (
    re.compile(r"^(?:ssh\.dev\.azure\.com|vs-ssh\.visualstudio\.com)/v3/([^/]+)/([^/]+)/([^/]+)$"),
    re.compile(r"^dev\.azure\.com/([^/]+)/([^/]+)/_git/([^/]+)$"),
    re.compile(r"^([^/.]+)\.visualstudio\.com/(?:defaultcollection/)?([^/]+)/_git/([^/]+)$"),
)


def normalize_remote(url: str) -> str:
    """One name per repository, whatever the remote's form: `git@github.com:Org/Repo.git`,
    `ssh://git@github.com:22/org/repo` and `https://github.com/org/repo` are the same repository,
    and so are Azure DevOps's SSH, HTTPS and visualstudio.com URLs of one repository."""
    url = url.strip().lower()
    url = re.sub(r"^[a-z+]+://", "", url)
    url = re.sub(r"^[^@/]+@", "", url)
    url = re.sub(r"^([^/:]+):\d+/", r"\1/", url)  # an explicit port
    url = url.replace(":", "/").rstrip("/")
    url = url[:-4] if url.endswith(".git") else url
    for form in _AZURE_FORMS:
        match = form.match(url)
        if match:
            return "dev.azure.com/" + "/".join(match.groups())
    return url


def _slug(text: str) -> str:
    tail = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[-40:].strip("-")
    return f"{tail}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def resolve_root(repo_path: str | Path) -> Path:
    """The directory a user named, checked: it must exist and be a directory."""
    path = Path(repo_path).expanduser()
    if not path.exists():
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"repo_path '{repo_path}' does not exist.",
            "Pass the absolute path of the repository root (the folder holding the .sln/.slnx).",
        )
    if not path.is_dir():
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"repo_path '{repo_path}' is a file, not a directory.",
            f"Pass its folder instead: repo_path=\"{path.resolve().parent}\".",
        )
    return path.resolve()


FINGERPRINT_SUFFIXES = {".cs", ".csproj", ".sln", ".slnx", ".props", ".targets"}
FINGERPRINT_SKIP = {"bin", "obj", "node_modules", "packages"}
FINGERPRINT_MAX_ENTRIES = 200_000  # directory entries looked at; a source tree has far fewer
FINGERPRINT_MAX_SECONDS = 10.0


def _worktree_fingerprint(root: Path) -> tuple[str, tuple[str, ...]]:
    """Without git there is no commit: identify the tree by its C#/project files' sizes and mtimes.
    The walk is bounded (entries, then time; hidden folders, bin/ and obj/ skipped): a huge non-git
    folder gets a partial fingerprint and a note saying so, instead of a walk of the whole disk."""
    digest = hashlib.sha1()
    seen = 0
    deadline = time.monotonic() + FINGERPRINT_MAX_SECONDS
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in FINGERPRINT_SKIP and not d.startswith("."))
        seen += len(dirs) + len(files)
        rel_folder = Path(folder).relative_to(root)
        for name in sorted(files):
            if os.path.splitext(name)[1] in FINGERPRINT_SUFFIXES:
                with contextlib.suppress(OSError):
                    stat = os.stat(os.path.join(folder, name))
                    digest.update(f"{(rel_folder / name).as_posix()}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
        if seen > FINGERPRINT_MAX_ENTRIES or time.monotonic() > deadline:
            why = f"{seen} entries" if seen > FINGERPRINT_MAX_ENTRIES else f"{FINGERPRINT_MAX_SECONDS:.0f} s"
            return "nogit" + digest.hexdigest()[:35], (
                f"{root} is not a git repository and is too big to fingerprint whole (stopped after {why}): "
                "changes to its files may not be noticed. Use a git repository, or pass a smaller repo_path.",)
    return "nogit" + digest.hexdigest()[:35], ()


def inspect_repo(repo_path: str | Path) -> RepoInfo:
    root = resolve_root(repo_path)
    commit = _git(root, "rev-parse", "HEAD")
    if commit is None:
        fingerprint, notes = _worktree_fingerprint(root)
        return RepoInfo(root, _slug(str(root)), fingerprint, None, False, (), notes)
    top = Path(_git(root, "rev-parse", "--show-toplevel") or root).resolve()
    origin = _git(top, "config", "--get", "remote.origin.url")
    repo_id = _slug(normalize_remote(origin)) if origin else _slug(str(top))
    branch = _git(top, "rev-parse", "--abbrev-ref", "HEAD")
    dirty = dirty_paths(_git_bytes(top, "status", "--porcelain=v1", "-z", "--untracked-files=all") or b"")
    return RepoInfo(top, repo_id, commit, None if branch == "HEAD" else branch, True, dirty)


# Build outputs (MSBuild's bin/ and obj/, also under .NET 8's artifacts/ layout): restore and the indexer's
# design-time builds write them, so they never make a tree dirty, .gitignore or not.
BUILD_OUTPUT_DIRS = frozenset({"bin", "obj"})


def is_build_output(path: str) -> bool:
    return any(part.lower() in BUILD_OUTPUT_DIRS for part in path.split("/")[:-1])


def dirty_paths(status: bytes) -> tuple[str, ...]:
    """Changed paths from `git status --porcelain=v1 -z`: entries are `XY path` NUL-terminated and unquoted;
    a rename or copy (X or Y is R or C) is followed by its source path as one more NUL-terminated field.
    Both sides of a rename count as changed. Build outputs are left out."""
    fields = status.split(b"\0")
    out: list[str] = []
    i = 0
    while i < len(fields):
        entry = fields[i]
        i += 1
        if len(entry) < 4:  # the empty field after the last NUL
            continue
        out.append(os.fsdecode(entry[3:]))
        if b"R" in entry[:2] or b"C" in entry[:2]:
            if i < len(fields):
                out.append(os.fsdecode(fields[i]))
            i += 1
    return tuple(dict.fromkeys(p for p in out if not is_build_output(p)))


def fast_head(root: Path) -> str | None:
    """HEAD's commit read straight from .git (no subprocess): queries check it on every call."""
    git_dir = root / ".git"
    if git_dir.is_file():  # worktrees and submodules point elsewhere
        text = git_dir.read_text().strip()
        if not text.startswith("gitdir:"):
            return None
        git_dir = (root / text.split(":", 1)[1].strip()).resolve()
    try:
        head = (git_dir / "HEAD").read_text().strip()
    except OSError:
        return None
    if not head.startswith("ref:"):
        return head
    ref = head.split(":", 1)[1].strip()
    ref_file = git_dir / ref
    if ref_file.exists():
        return ref_file.read_text().strip()
    packed = git_dir / "packed-refs"
    if packed.exists():
        for line in packed.read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split(" ", 1)[0]
    return None

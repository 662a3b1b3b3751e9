"""DESIGN §11: the repositories a server answers for (docs/security.md).

Allowed: every `serve --repo` (its git work tree), every `--allow-root` and ROSLYNMAP_ALLOWED_ROOTS
entry (any repository under it), and, when started without --repo, the git repository of the
working directory. Any other repo_path is refused before anything looks at it (no git, no walk).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from roslynmap.model import settings
from roslynmap.model.errors import ErrorCode, RoslynMapError

ALLOWED_ROOTS_ENV = settings.ALLOWED_ROOTS


def _real(path: str | Path) -> str:
    return os.path.realpath(os.path.expanduser(str(path)))


def _git_toplevel(path: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", path, "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                              timeout=20, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return _real(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else None


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


@dataclass(frozen=True)
class Confinement:
    roots: tuple[str, ...]  # real paths

    def allows(self, real: str) -> bool:
        return any(_inside(real, root) for root in self.roots)

    def check(self, repo_path: str) -> None:
        """Refuses a repo_path outside every allowed root (symlinks followed)."""
        try:
            real = _real(repo_path)
        except (OSError, ValueError) as exc:
            raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"repo_path '{repo_path[:200]}' is not a usable path: "
                                 f"{exc}.", "Pass the absolute path of the repository root.") from exc
        if not self.allows(real):
            raise self.refusal(repo_path)

    def check_root(self, root: Path) -> None:
        """The repository a path resolved to (git's top level) must be allowed too."""
        if not self.allows(_real(root)):
            raise self.refusal(str(root))

    def refusal(self, repo_path: str) -> RoslynMapError:
        allowed = ", ".join(self.roots) if self.roots else "none"
        return RoslynMapError(
            ErrorCode.PATH_OUTSIDE_REPO,
            f"repo_path '{repo_path[:300]}' is not a repository this server may read (allowed: {allowed}).",
            f"Only the user can allow it: start the server with --repo {repo_path[:300]} (repeatable) or "
            f"--allow-root <parent folder>, or add the folder to {ALLOWED_ROOTS_ENV} "
            f"({os.pathsep}-separated). See docs/security.md.",
        )


def env_roots() -> list[str]:
    return list(settings.current().allowed_roots)


def _repo_roots(repos: Iterable[str]) -> list[str]:
    out = []
    for repo in repos:
        out.append(_real(repo))
        top = _git_toplevel(repo) if os.path.isdir(repo) else None
        if top:
            out.append(top)
    return out


def working_repo(cwd: str) -> str | None:
    """The git work tree containing `cwd`: what `serve` without --repo answers for (MCP clients start servers
    in the project folder)."""
    return _git_toplevel(cwd)


def build(repos: Iterable[str] = (), allow_roots: Iterable[str] = (), cwd: str | None = None) -> Confinement:
    """The server's policy: --repo values (and their work trees), --allow-root and ROSLYNMAP_ALLOWED_ROOTS
    entries, and `cwd`'s git work tree when no --repo was given."""
    repos = [r for r in repos if r]
    roots = _repo_roots(repos) + [_real(r) for r in [*allow_roots, *env_roots()] if r.strip()]
    if not repos and cwd is not None:
        top = _git_toplevel(cwd)
        if top:
            roots.append(top)
    return Confinement(tuple(dict.fromkeys(r for r in roots if r)))

"""The shared baseline cache (DESIGN §6): CI publishes a commit's baseline once, every machine pulls it.

Layout: `<cache>/<repo_id>/<commit>/baseline.db` + `manifest.json` (sha256 and size of the file,
schema version, toolchain, semantic level, counts, created_at). An entry is complete exactly when its
manifest exists: the database is copied to a temp file beside it, fsynced and renamed first, the
manifest last, the same way. Publishers of one entry serialize on a lock file in the entry (store/locks.py:
a prune may delete it under the lock), so a second publisher of the same commit finds the first one's
complete entry and skips. Pulls copy the file into
the local store while hashing it, and check the hash, the size, the schema and the Roslyn version before
renaming it into place; a bad entry is reported, never used.
The same cache on S3 or an S3-compatible store (`s3://bucket/prefix`) keeps these guarantees with
conditional writes instead of the lock, and zstd compression (store/objectstore.py); `pull`, `publish` and
`has_entry` take either kind of root.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import socket
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

from filelock import Timeout

from roslynmap import __version__
from roslynmap.model import settings
from roslynmap.model.errors import ErrorCode, RoslynMapError
from roslynmap.store import locks, objectstore
from roslynmap.store.objectstore import S3Root
from roslynmap.store.reader import baseline_uri, read_meta
from roslynmap.store.repo import is_build_output
from roslynmap.store.schema import SCHEMA_VERSION

CACHE_ENV = settings.CACHE_DIR
BASELINE_FILE = "baseline.db"
MANIFEST_FILE = "manifest.json"
LOCK_FILE = ".lock"
MANIFEST_FORMAT = 1
LOCK_TIMEOUT_S = 300.0
CHUNK = 1 << 20
# Uncommitted changes to these files change what the index holds: such a baseline is not the commit's.
INDEX_INPUTS = (".cs", ".csproj", ".sln", ".slnx", ".props", ".targets", ".editorconfig", "global.json",
                "nuget.config", ".globalconfig")

CacheRoot: TypeAlias = Path | S3Root  # a folder (local, network share) or an s3:// location
PullStatus = Literal["pulled", "missing", "rejected"]
PushStatus = Literal["published", "replaced", "exists", "skipped_degraded", "skipped_dirty"]


@dataclass(frozen=True)
class PullResult:
    status: PullStatus
    entry: Any  # the entry's folder (Path), or its s3:// URL (str) on object storage
    message: str | None = None  # why an entry is missing (only when that is worth saying) or rejected
    manifest: dict[str, Any] | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class PushResult:
    status: PushStatus
    entry: Any  # as PullResult.entry
    message: str
    manifest: dict[str, Any] | None = None

    @property
    def pushed(self) -> bool:
        return self.status in ("published", "replaced")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "pushed": self.pushed, "entry": str(self.entry),
                               "message": self.message}
        if self.manifest is not None:
            out["sha256"] = self.manifest["sha256"]
            out["size_bytes"] = self.manifest["size_bytes"]
        return out


def configured_cache_dir() -> str | None:
    """ROSLYNMAP_CACHE_DIR; unset and empty both mean "no shared cache" (a blank --cache-dir is an error)."""
    return settings.current().cache_dir


def check_cache_dir(value: str | Path, *, writable: bool, repo_root: Path | None = None) -> CacheRoot:
    """The cache root: an s3:// location (probed with HeadBucket when `writable`), else an absolute path.
    Blank is refused (it would mean the current directory); with `writable`, the folder is created and
    probed, and a folder inside the repository is refused."""
    text = str(value)
    if isinstance(value, str) and objectstore.is_s3_url(text):
        return objectstore.check_root(objectstore.parse_s3_url(text), writable=writable)
    if not text.strip():
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            "The cache directory is blank (--cache-dir \"\").",
            "Pass the shared folder (--cache-dir /mnt/roslynmap-cache or ROSLYNMAP_CACHE_DIR), or omit "
            "--cache-dir to use no shared cache.",
        )
    root = Path(text).expanduser().resolve()
    if not writable:
        return root
    if repo_root is not None and (root == repo_root or repo_root in root.parents):
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"The cache directory {root} is inside the repository {repo_root}; publishing there would write "
            "into the working tree.",
            "Use a folder outside the checkout: a network share, or $RUNNER_TEMP/roslynmap-cache on GitHub "
            "Actions, $(Pipeline.Workspace)/roslynmap-cache on Azure Pipelines.",
        )
    try:
        root.mkdir(parents=True, exist_ok=True)
        probe = root / f".probe-{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        probe.unlink()
    except OSError as exc:
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"The cache directory {root} is not writable: {exc.strerror or exc}.",
            "Point --cache-dir (or ROSLYNMAP_CACHE_DIR) at a folder this user can create files in; on a "
            "shared folder, give the CI account write access.",
        ) from exc
    return root


def entry_dir(cache_root: Path, repo_id: str, commit: str) -> Path:
    return cache_root / repo_id / commit


def has_entry(cache_root: CacheRoot, repo_id: str, commit: str) -> bool:
    """A complete entry exists (not verified: listing must stay cheap; pulls verify)."""
    if isinstance(cache_root, S3Root):
        return objectstore.has_entry(cache_root, repo_id, commit)
    return (entry_dir(cache_root, repo_id, commit) / MANIFEST_FILE).is_file()


def database_meta(path: Path) -> dict[str, Any]:
    """The meta table of a baseline file, read without WAL side files (baselines are immutable)."""
    conn = sqlite3.connect(baseline_uri(path), uri=True)
    try:
        return read_meta(conn)
    finally:
        conn.close()


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # not possible on every platform or share; the renames are still atomic
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _temp_beside(final: Path) -> tuple[Path, int]:
    """A new, uniquely named file in the final file's folder (so the rename stays on one filesystem).
    The host name keeps publishers on different machines apart on a shared folder."""
    temp = final.with_name(f".{final.name}.{socket.gethostname()}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    return temp, os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)


def _copy_to_temp(source: Path, final: Path) -> tuple[Path, str, int]:
    """Copies `source` to a synced temp file beside `final`, hashing it on the way: (temp, sha256, size)."""
    temp, fd = _temp_beside(final)
    digest = hashlib.sha256()
    size = 0
    try:
        with open(source, "rb") as src, os.fdopen(fd, "wb") as dst:
            while chunk := src.read(CHUNK):
                digest.update(chunk)
                dst.write(chunk)
                size += len(chunk)
            dst.flush()
            os.fsync(dst.fileno())
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp, digest.hexdigest(), size


def _write_atomic(final: Path, data: bytes) -> None:
    temp, fd = _temp_beside(final)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, final)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _fsync_dir(final.parent)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def read_manifest(entry: Path) -> dict[str, Any] | None:
    """The entry's manifest; None when there is none (no entry, or one still being written)."""
    try:
        text = (entry / MANIFEST_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    manifest = json.loads(text)
    if not isinstance(manifest, dict):
        raise ValueError("the manifest is not a JSON object")
    return manifest


def manifest_problem(manifest: dict[str, Any], repo_id: str, commit: str) -> str | None:
    """Why a manifest cannot describe a usable baseline for this repository and commit, else None."""
    short = commit[:12]
    if manifest.get("format") != MANIFEST_FORMAT:
        return f"cache entry for {short} has manifest format {manifest.get('format')}; this roslynmap reads " \
               f"{MANIFEST_FORMAT}"
    if manifest.get("schema_version") != SCHEMA_VERSION:
        return f"cache entry for {short} has schema version {manifest.get('schema_version')}; this roslynmap " \
               f"reads {SCHEMA_VERSION}"
    if manifest.get("repo_id") != repo_id or manifest.get("commit") != commit:
        return f"cache entry for {short} describes {manifest.get('repo_id')}@{str(manifest.get('commit'))[:12]}"
    if not isinstance(manifest.get("sha256"), str) or not isinstance(manifest.get("size_bytes"), int):
        return f"cache entry for {short} has a manifest without sha256/size_bytes"
    return toolchain_problem(manifest, commit)


def roslyn_release(version: object) -> str | None:
    """`5.12.0` of `5.12.0-3.26105.2+abc...` (Roslyn's informational version, as baselines record it)."""
    if not isinstance(version, str) or not version:
        return None
    return version.split("+")[0].split("-")[0]


# The Roslyn version this process's bridge compiles with. The store cannot know the bridge (it sits below
# roslyn/ in the layers); workspace/baselines.py, which decides where baselines come from, registers it.
def _no_bridge_version() -> str | None:
    return None


_bridge_roslyn_version: Callable[[], str | None] = _no_bridge_version


def expect_roslyn(version: Callable[[], str | None]) -> None:
    """Registers how to read the bridge's Roslyn version; cache entries made by another are refused."""
    global _bridge_roslyn_version
    _bridge_roslyn_version = version


def toolchain_problem(manifest: dict[str, Any], commit: str) -> str | None:
    """A baseline compiled by another Roslyn than this roslynmap's bridge may hold other symbols and
    references: it is rebuilt, not trusted. Skipped when no bridge is built here or the manifest records no
    version (every baseline the bridge writes records one; only hand-made test entries lack it)."""
    local = _bridge_roslyn_version()
    toolchain = manifest.get("toolchain")
    made_by = toolchain.get("roslynmap_version") if isinstance(toolchain, dict) else None
    if made_by is not None and made_by != __version__:
        # Each roslynmap version extracts something the last did not: an entry of another answers as it did.
        return f"cache entry for {commit[:12]} was made by roslynmap {made_by}; this is roslynmap {__version__}"
    recorded = toolchain.get("roslyn_version") if isinstance(toolchain, dict) else None
    release = roslyn_release(recorded)
    if local is None or release is None or release == local:
        return None
    return f"cache entry for {commit[:12]} was made by Roslyn {recorded}; this roslynmap uses Roslyn {local}"


def _database_problem(path: Path, commit: str) -> str | None:
    short = commit[:12]
    try:
        meta = database_meta(path)
    except sqlite3.Error as exc:
        return f"cache entry for {short} is not a readable baseline ({exc})"
    if meta.get("schema_version") != SCHEMA_VERSION:
        return f"cache entry for {short} holds a database of schema version {meta.get('schema_version')}; " \
               f"this roslynmap reads {SCHEMA_VERSION}"
    if meta.get("commit") != commit:
        return f"cache entry for {short} holds the baseline of commit {str(meta.get('commit'))[:12]}"
    return None


def _checksum_problem(manifest: dict[str, Any], sha: str, size: int, commit: str) -> str | None:
    if size != manifest["size_bytes"]:
        return f"cache entry for {commit[:12]} failed checksum (size {size} bytes, manifest says " \
               f"{manifest['size_bytes']})"
    if sha != manifest["sha256"]:
        return f"cache entry for {commit[:12]} failed checksum (sha256 {sha[:16]}, manifest says " \
               f"{manifest['sha256'][:16]})"
    return None


def verify_entry(entry: Path, manifest: dict[str, Any], repo_id: str, commit: str) -> str | None:
    """Why an entry in the cache is unusable (manifest, size, checksum, database), else None."""
    problem = manifest_problem(manifest, repo_id, commit)
    if problem:
        return problem
    database = entry / BASELINE_FILE
    try:
        size = database.stat().st_size
        sha = file_sha256(database) if size == manifest["size_bytes"] else ""
    except OSError:
        return f"cache entry for {commit[:12]} has no {BASELINE_FILE}"
    return _checksum_problem(manifest, sha, size, commit) or _database_problem(database, commit)


def _install_pulled(temp: Path, dest: Path, entry: Any, manifest: dict[str, Any], problem: str | None,
                    started: float) -> PullResult:
    """The last step of every pull (folder or S3): a verified temp file becomes the local baseline
    atomically; one that failed verification is removed and the entry reported rejected."""
    if problem:
        temp.unlink(missing_ok=True)
        return PullResult("rejected", entry, problem, manifest)
    os.replace(temp, dest)
    _fsync_dir(dest.parent)
    return PullResult("pulled", entry, None, manifest, round(time.perf_counter() - started, 3))


def pull(cache_root: CacheRoot, repo_id: str, commit: str, dest: Path) -> PullResult:
    """Copies a verified cache entry to `dest` (the local store). Never raises for a bad entry:
    `rejected` says why, and `dest` is left untouched."""
    if isinstance(cache_root, S3Root):
        return _pull_s3(cache_root, repo_id, commit, dest)
    started = time.perf_counter()
    entry = entry_dir(cache_root, repo_id, commit)
    if not cache_root.is_dir():
        return PullResult("missing", entry, f"the cache directory {cache_root} does not exist or is not reachable")
    try:
        manifest = read_manifest(entry)
    except (OSError, ValueError) as exc:
        return PullResult("rejected", entry, f"cache entry for {commit[:12]} has an unreadable manifest ({exc})")
    if manifest is None:
        return PullResult("missing", entry)
    problem = manifest_problem(manifest, repo_id, commit)
    if problem:
        return PullResult("rejected", entry, problem, manifest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        temp, sha, size = _copy_to_temp(entry / BASELINE_FILE, dest)
    except FileNotFoundError:
        return PullResult("rejected", entry, f"cache entry for {commit[:12]} has no {BASELINE_FILE}", manifest)
    except OSError as exc:
        return PullResult("rejected", entry, f"cache entry for {commit[:12]} could not be copied ({exc})", manifest)
    problem = _checksum_problem(manifest, sha, size, commit) or _database_problem(temp, commit)
    return _install_pulled(temp, dest, entry, manifest, problem, started)


def _build_manifest(meta: dict[str, Any], repo_id: str, commit: str, sha: str, size: int) -> dict[str, Any]:
    return {
        "format": MANIFEST_FORMAT,
        "repo_id": repo_id,
        "commit": commit,
        "file": BASELINE_FILE,
        "sha256": sha,
        "size_bytes": size,
        "schema_version": meta.get("schema_version"),
        "toolchain": {k: meta.get(k) for k in ("roslynmap_version", "roslyn_version", "sdk_version")},
        "semantic_level": meta.get("semantic_level"),
        "counts": meta.get("counts"),
        "solution": meta.get("solution"),
        "branch": meta.get("branch"),
        "created_at": meta.get("created_at"),
        "published_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "published_by": socket.gethostname(),
    }


def dirty_for_meta(dirty_files: Sequence[str], limit: int = 50) -> list[str]:
    """The changed files a baseline records (`dirty_files_at_index`), index inputs first, so the limit
    never hides the change that makes a baseline unpublishable."""
    inputs = [f for f in dirty_files if f.lower().endswith(INDEX_INPUTS)]
    return (inputs + [f for f in dirty_files if not f.lower().endswith(INDEX_INPUTS)])[:limit]


def _dirty_inputs(meta: dict[str, Any]) -> list[str]:
    files = meta.get("dirty_files_at_index") or []
    # Build outputs are left out when recorded; baselines of older versions may still list them.
    return [f for f in files if isinstance(f, str) and f.lower().endswith(INDEX_INPUTS) and not is_build_output(f)]


def publish(cache_root: CacheRoot, repo_id: str, commit: str, baseline: Path, *, allow_degraded: bool = False
            ) -> PushResult:
    """Publishes a local baseline as the cache entry of `commit`, atomically and at most once.

    A complete, verified entry is left alone (`exists`), except that a full baseline replaces a degraded
    one and any baseline replaces an entry that fails verification (`replaced`). Raises RoslynMapError when
    the cache cannot be written or another publisher holds the entry's lock for too long.
    """
    entry: Path | str = cache_root.entry(repo_id, commit) if isinstance(cache_root, S3Root) \
        else entry_dir(cache_root, repo_id, commit)
    short = commit[:12]
    meta = database_meta(baseline)
    if meta.get("schema_version") != SCHEMA_VERSION or meta.get("commit") != commit:
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"{baseline} is not a schema-{SCHEMA_VERSION} baseline of {short}.",
            "Rebuild it with `roslynmap index --force`, then push.",
        )
    level = meta.get("semantic_level")
    if level != "full" and not allow_degraded:
        return PushResult("skipped_degraded", entry,
                          f"Not pushed: the baseline for {short} is {level} (not every project compiled); "
                          "teammates would get incomplete answers. Fix the build (or --restore), or pass "
                          "--allow-degraded to publish it anyway.")
    dirty = _dirty_inputs(meta)
    if dirty:
        return PushResult("skipped_dirty", entry,
                          f"Not pushed: the baseline for {short} was indexed with uncommitted changes to "
                          f"{', '.join(dirty[:5])}; it is not the commit's. Index a clean checkout to publish.")
    if isinstance(cache_root, S3Root):
        return _publish_s3(cache_root, meta, repo_id, commit, baseline)
    assert isinstance(entry, Path)
    try:
        # The lock (re)creates the entry folder: a prune may remove it while this publisher waits.
        with locks.exclusive(entry / LOCK_FILE, LOCK_TIMEOUT_S):
            return _publish_locked(entry, meta, repo_id, commit, baseline)
    except Timeout as exc:
        raise RoslynMapError(
            ErrorCode.BUSY,
            f"Another publisher has held the lock on {entry} for over {int(LOCK_TIMEOUT_S)} s.",
            f"Retry later; if no publisher is running, delete {entry / LOCK_FILE}.",
        ) from exc
    except OSError as exc:
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"Could not publish to {entry}: {exc.strerror or exc}.",
            "Check that the cache directory is writable and has free space.",
        ) from exc


def _publish_locked(entry: Path, meta: dict[str, Any], repo_id: str, commit: str, baseline: Path
                    ) -> PushResult:
    short = commit[:12]
    try:
        existing = read_manifest(entry)
        problem = None if existing is None else verify_entry(entry, existing, repo_id, commit)
    except ValueError as exc:
        existing, problem = {}, f"unreadable manifest ({exc})"
    replacing = None
    if existing is not None:
        replacing = _replacing(existing, problem, meta)
        if replacing is None:
            return _exists(entry, existing, short)
        # Readers must never pair the old manifest with the new file: the entry is incomplete meanwhile.
        (entry / MANIFEST_FILE).unlink(missing_ok=True)
        _fsync_dir(entry)
    temp, sha, size = _copy_to_temp(baseline, entry / BASELINE_FILE)
    try:
        os.replace(temp, entry / BASELINE_FILE)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _fsync_dir(entry)
    manifest = _build_manifest(meta, repo_id, commit, sha, size)
    _write_atomic(entry / MANIFEST_FILE, json.dumps(manifest, indent=2).encode())
    if replacing:
        return PushResult("replaced", entry, f"Published the baseline for {short} to {entry} ({replacing}).",
                          manifest)
    return PushResult("published", entry, f"Published the baseline for {short} to {entry}.", manifest)


def _replacing(existing: dict[str, Any], problem: str | None, meta: dict[str, Any]) -> str | None:
    """Why a publisher replaces the entry the cache holds (folder or S3 alike), or None to keep it."""
    if problem:
        return f"replaced an entry that failed verification: {problem}"
    if existing.get("semantic_level") != "full" and meta.get("semantic_level") == "full":
        return f"replaced a {existing.get('semantic_level')} entry with a full one"
    return None


def _exists(entry: Any, existing: dict[str, Any], short: str) -> PushResult:
    return PushResult("exists", entry,
                      f"The cache already holds a complete baseline for {short} (published "
                      f"{existing.get('published_at')} by {existing.get('published_by')}); skipped.", existing)


def _pull_s3(root: S3Root, repo_id: str, commit: str, dest: Path) -> PullResult:
    """The S3 side of `pull`: manifest checks, then the object streamed, decompressed and verified into a temp
    file beside `dest`. An unreachable store or a bad entry is a result with a reason, never an exception."""
    started = time.perf_counter()
    entry = root.entry(repo_id, commit)
    short = commit[:12]
    try:
        found = objectstore.read_manifest(root, repo_id, commit)
    except RoslynMapError as exc:  # boto3 not installed
        return PullResult("missing", entry, f"{exc.message} {exc.hint}")
    except ValueError as exc:
        return PullResult("rejected", entry, f"cache entry for {short} has an unreadable manifest ({exc})")
    except Exception as exc:  # no answer (endpoint down), or a refusal (credentials, permissions, bucket)
        reason = objectstore.describe_error(exc)
        verb = "is not reachable" if reason.startswith("cannot reach") else "could not be read"
        return PullResult("missing", entry, f"the S3 cache {root} {verb}: {reason}")
    if found is None:
        return PullResult("missing", entry)
    manifest, _etag = found
    problem = manifest_problem(manifest, repo_id, commit)
    if problem:
        return PullResult("rejected", entry, problem, manifest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    temp, fd = _temp_beside(dest)
    os.close(fd)
    try:
        sha, size = objectstore.download(root, repo_id, commit, manifest, temp)
        problem = _checksum_problem(manifest, sha, size, commit) or _database_problem(temp, commit)
    except ValueError as exc:
        problem = f"cache entry for {short} is corrupt ({exc})"
    except Exception as exc:
        problem = f"cache entry for {short} could not be downloaded ({objectstore.describe_error(exc)})"
    return _install_pulled(temp, dest, entry, manifest, problem, started)


def _verify_s3(root: S3Root, manifest: dict[str, Any], repo_id: str, commit: str, scratch: Path) -> str | None:
    """Why an existing S3 entry is unusable, else None (downloads it: the folder cache hashes it too)."""
    problem = manifest_problem(manifest, repo_id, commit)
    if problem:
        return problem
    try:
        sha, size = objectstore.download(root, repo_id, commit, manifest, scratch)
        return _checksum_problem(manifest, sha, size, commit) or _database_problem(scratch, commit)
    except ValueError as exc:
        return f"corrupt ({exc})"
    except Exception as exc:
        code = objectstore.describe_error(exc)
        if "NoSuchKey" in code:
            return "its object is missing"
        raise
    finally:
        scratch.unlink(missing_ok=True)


def _publish_s3(root: S3Root, meta: dict[str, Any], repo_id: str, commit: str, baseline: Path) -> PushResult:
    entry = root.entry(repo_id, commit)
    short = commit[:12]
    staged = baseline.with_name(f".{baseline.name}.{os.getpid()}.{secrets.token_hex(4)}.zst")
    name: str | None = None
    try:
        found = objectstore.read_manifest(root, repo_id, commit)
        etag = None
        replacing = None
        if found is not None:
            existing, etag = found
            replacing = _replacing(existing, _verify_s3(root, existing, repo_id, commit, staged), meta)
            if replacing is None:
                return _exists(entry, existing, short)
        sha, size, packed = objectstore.compress(baseline, staged)
        name = objectstore.new_object_name(sha)
        objectstore.upload(root, repo_id, commit, name, staged)
        manifest = {**_build_manifest(meta, repo_id, commit, sha, size), "object": name, "compression": "zstd",
                    "compressed_size_bytes": packed}
        if not objectstore.put_manifest(root, repo_id, commit, manifest, replace_etag=etag):
            objectstore.delete_object(root, repo_id, commit, name)
            return PushResult("exists", entry, f"Another publisher published the baseline for {short} to {entry} "
                                               "first; skipped.")
        if found is not None:
            objectstore.delete_object(root, repo_id, commit, str(found[0].get("object") or ""))
    except RoslynMapError:
        raise
    except ValueError as exc:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"Could not publish to {entry}: {exc}.",
                             "Check the cache entry; `--force` rebuilds the local baseline.") from exc
    except Exception as exc:
        if name is not None:
            objectstore.delete_object(root, repo_id, commit, name)
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"Could not publish to {entry}: {objectstore.describe_error(exc)}.",
            f"Check the bucket, the credentials and the endpoint ({objectstore.ENDPOINT_ENV} or AWS_ENDPOINT_URL).",
        ) from exc
    finally:
        staged.unlink(missing_ok=True)
    if replacing:
        return PushResult("replaced", entry, f"Published the baseline for {short} to {entry} ({replacing}).",
                          manifest)
    return PushResult("published", entry, f"Published the baseline for {short} to {entry} ({size / 1e6:.1f} MB, "
                                          f"{packed / 1e6:.1f} MB compressed).", manifest)

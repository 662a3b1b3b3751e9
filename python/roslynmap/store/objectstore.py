"""The shared baseline cache on S3 or an S3-compatible store (MinIO, R2, Ceph): `--cache-dir s3://bucket/prefix`.

Layout under the prefix: `<repo_id>/<commit>/manifest.json` and `<repo_id>/<commit>/<object>` where the object is
the zstd-compressed baseline under a name no other publisher uses (`baseline-<sha256[:16]>-<random>.db.zst`).
An entry is complete exactly when its manifest exists, as in the folder cache (store/cache.py), and the same
guarantees hold without a lock file that a crashed runner could leave behind:
- atomic publish: the object is uploaded first, the manifest that names it last, in one PutObject;
- concurrent publishers: the manifest is created with a conditional write (If-None-Match: *), so exactly one
  publisher wins and the others delete their object and report `exists`; replacing an entry (degraded by full,
  or one that fails verification) is conditional on the manifest's ETag (If-Match), so two replacers cannot
  both win either;
- verified pulls: manifest checks (format, schema, repository, commit, Roslyn version), then the object is
  streamed, decompressed and hashed into a temp file beside the local baseline, whose sha256, size and
  database meta are checked before it is renamed into place. A reader pairs a manifest with the object it
  names, and objects are never rewritten, so a concurrent replace cannot hand it a mix.
boto3 and zstandard come with the `roslynmap[s3]` extra. The endpoint is AWS's unless AWS_ENDPOINT_URL or
ROSLYNMAP_S3_ENDPOINT_URL names another; credentials come from the usual AWS chain (env, profile, role).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roslynmap.model import settings
from roslynmap.model.errors import ErrorCode, RoslynMapError

ENDPOINT_ENV = "ROSLYNMAP_S3_ENDPOINT_URL"
SCHEME = "s3://"
MANIFEST_FILE = "manifest.json"
CHUNK = 1 << 20
ZSTD_LEVEL = 3  # ~6x smaller on baselines at hundreds of MB/s; higher levels cost CI time for little gain


@dataclass(frozen=True)
class S3Root:
    """A cache root in a bucket. `str()` gives the s3:// URL users typed."""

    bucket: str
    prefix: str  # without leading or trailing slash; may be empty

    def __str__(self) -> str:
        return f"{SCHEME}{self.bucket}/{self.prefix}" if self.prefix else f"{SCHEME}{self.bucket}"

    def key(self, *parts: str) -> str:
        return "/".join(p for p in (self.prefix, *parts) if p)

    def entry(self, repo_id: str, commit: str) -> str:
        return f"{self}/{repo_id}/{commit}"


def is_s3_url(text: str) -> bool:
    return text.strip().lower().startswith(SCHEME)


def parse_s3_url(text: str) -> S3Root:
    rest = text.strip()[len(SCHEME):]
    bucket, _, prefix = rest.partition("/")
    if not bucket:
        raise RoslynMapError(ErrorCode.INVALID_ARGUMENT, f"The cache URL {text!r} names no bucket.",
                             "Use --cache-dir s3://bucket/optional/prefix.")
    return S3Root(bucket, prefix.strip("/"))


def endpoint_url() -> str | None:
    """ROSLYNMAP_S3_ENDPOINT_URL, else AWS_ENDPOINT_URL (which boto3 also reads), else AWS's own endpoint."""
    return settings.current().s3_endpoint_url or os.environ.get("AWS_ENDPOINT_URL") or None


def _modules() -> tuple[Any, Any, Any]:
    try:
        import boto3
        import botocore.config
        import zstandard
    except ImportError as exc:
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"An s3:// cache needs boto3 and zstandard, which are not installed ({exc.name} is missing).",
            "Install the extra: `pipx install 'roslynmap[s3]'` (or `pip install 'roslynmap[s3]'`).",
        ) from exc
    return boto3, botocore.config, zstandard


_clients: dict[str | None, Any] = {}


def client() -> Any:
    """One S3 client per endpoint. Short connect timeout and few retries: an unreachable cache must cost
    seconds before the baseline is built locally, not minutes."""
    url = endpoint_url()
    if url not in _clients:
        boto3, config, _ = _modules()
        _clients[url] = boto3.client("s3", endpoint_url=url, config=config.Config(
            connect_timeout=5, read_timeout=60, retries={"max_attempts": 2, "mode": "standard"}))
    return _clients[url]


def describe_error(exc: BaseException) -> str:
    """A one-line reason for a failed S3 call, naming the endpoint when it could not be reached."""
    response = getattr(exc, "response", None)
    if isinstance(response, dict) and "Error" in response:
        error = response["Error"]
        return f"{error.get('Code')}: {error.get('Message') or 'no message'}"
    name = type(exc).__name__
    if "Endpoint" in name or "Connect" in name or "Timeout" in name:
        return f"cannot reach {endpoint_url() or 'the AWS S3 endpoint'} ({exc})"
    return f"{name}: {exc}"


def _is_s3_error(exc: BaseException) -> bool:
    return type(exc).__module__.startswith(("botocore", "boto3", "urllib3")) or isinstance(exc, OSError)


def _error_code(exc: BaseException) -> str | None:
    response = getattr(exc, "response", None)
    if isinstance(response, dict):
        return str(response.get("Error", {}).get("Code")) if response.get("Error") else None
    return None


def check_root(root: S3Root, *, writable: bool) -> S3Root:
    """For a publisher: the bucket exists and answers (HeadBucket), so a bad cache fails before indexing."""
    if not writable:
        return root
    try:
        client().head_bucket(Bucket=root.bucket)
    except Exception as exc:
        if not _is_s3_error(exc):
            raise
        raise RoslynMapError(
            ErrorCode.INVALID_ARGUMENT,
            f"The S3 cache {root} is not usable: {describe_error(exc)}.",
            f"Check the bucket name, the credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or a role) and the "
            f"endpoint ({ENDPOINT_ENV} or AWS_ENDPOINT_URL for MinIO, R2, Ceph).",
        ) from exc
    return root


def read_manifest(root: S3Root, repo_id: str, commit: str) -> tuple[dict[str, Any], str] | None:
    """(manifest, ETag), or None when the entry has no manifest. Raises the client's errors."""
    try:
        got = client().get_object(Bucket=root.bucket, Key=root.key(repo_id, commit, MANIFEST_FILE))
    except Exception as exc:
        if _error_code(exc) in ("NoSuchKey", "404"):
            return None
        raise
    manifest = json.loads(got["Body"].read())
    if not isinstance(manifest, dict):
        raise ValueError("the manifest is not a JSON object")
    return manifest, str(got["ETag"])


_unreachable_until: dict[str | None, float] = {}
UNREACHABLE_BACKOFF_S = 60.0


def has_entry(root: S3Root, repo_id: str, commit: str) -> bool:
    """False when the entry is absent or the store does not answer; after a connection failure the endpoint
    is not asked again for a minute (listing many baselines must not wait out a timeout for each)."""
    url = endpoint_url()
    if _unreachable_until.get(url, 0.0) > time.monotonic():
        return False
    try:
        client().head_object(Bucket=root.bucket, Key=root.key(repo_id, commit, MANIFEST_FILE))
        return True
    except Exception as exc:
        if isinstance(exc, RoslynMapError):
            return False
        if not _is_s3_error(exc):
            raise
        if _error_code(exc) is None:  # no HTTP answer at all: connection refused, timeout, DNS
            _unreachable_until[url] = time.monotonic() + UNREACHABLE_BACKOFF_S
        return False


def download(root: S3Root, repo_id: str, commit: str, manifest: dict[str, Any], temp: Path) -> tuple[str, int]:
    """Streams the entry's object into `temp`, decompressing and hashing the database bytes: (sha256, size).
    Raises ValueError for a corrupt stream and the client's errors for a missing object."""
    _, _, zstandard = _modules()
    obj = manifest.get("object")
    if not isinstance(obj, str) or "/" in obj:
        raise ValueError("the manifest names no object")
    body = client().get_object(Bucket=root.bucket, Key=root.key(repo_id, commit, obj))["Body"]
    digest = hashlib.sha256()
    size = 0
    try:
        with open(temp, "wb") as out, zstandard.ZstdDecompressor().stream_reader(body) as reader:
            while chunk := reader.read(CHUNK):
                digest.update(chunk)
                out.write(chunk)
                size += len(chunk)
            out.flush()
            os.fsync(out.fileno())
    except zstandard.ZstdError as exc:
        raise ValueError(f"the object is not valid zstd ({exc})") from exc
    return digest.hexdigest(), size


def compress(source: Path, dest: Path) -> tuple[str, int, int]:
    """zstd-compresses `source` into `dest`: (sha256 of the raw file, raw size, compressed size)."""
    _, _, zstandard = _modules()
    digest = hashlib.sha256()
    size = 0
    compressor = zstandard.ZstdCompressor(level=ZSTD_LEVEL, threads=-1)
    with open(source, "rb") as src, open(dest, "wb") as out, compressor.stream_writer(out, closefd=False) as writer:
        while chunk := src.read(CHUNK):
            digest.update(chunk)
            writer.write(chunk)
            size += len(chunk)
    return digest.hexdigest(), size, dest.stat().st_size


def put_manifest(root: S3Root, repo_id: str, commit: str, manifest: dict[str, Any], *, replace_etag: str | None
                 ) -> bool:
    """Writes the manifest only if the entry is still as this publisher saw it: absent (If-None-Match: *) or
    unchanged since it was read (If-Match: ETag). False when another publisher got there first."""
    condition = {"IfMatch": replace_etag} if replace_etag else {"IfNoneMatch": "*"}
    try:
        client().put_object(Bucket=root.bucket, Key=root.key(repo_id, commit, MANIFEST_FILE),
                            Body=json.dumps(manifest, indent=2).encode(), ContentType="application/json",
                            **condition)
    except Exception as exc:
        # 409 ConditionalRequestConflict: another conditional write to the key was in flight.
        if _error_code(exc) in ("PreconditionFailed", "ConditionalRequestConflict", "412", "409"):
            return False
        raise
    return True


def new_object_name(sha: str) -> str:
    return f"baseline-{sha[:16]}-{secrets.token_hex(4)}.db.zst"


def upload(root: S3Root, repo_id: str, commit: str, name: str, path: Path) -> None:
    client().upload_file(str(path), root.bucket, root.key(repo_id, commit, name))


def delete_object(root: S3Root, repo_id: str, commit: str, name: str | None) -> None:
    """Best effort: a leftover object costs storage, never correctness (no manifest names it)."""
    if not name:
        return
    try:
        client().delete_object(Bucket=root.bucket, Key=root.key(repo_id, commit, name))
    except Exception as exc:
        if not _is_s3_error(exc):
            raise

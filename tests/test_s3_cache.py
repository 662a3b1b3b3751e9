"""The shared cache on object storage (`--cache-dir s3://bucket/prefix`), against a real S3 API server:
moto's server mode on 127.0.0.1, started here. Publish + pull, concurrent publishers (conditional writes),
a corrupted object, a baseline of another Roslyn, an unreachable endpoint.

The session's Shop baseline is pushed from copies in fresh ROSLYNMAP_HOMEs, so only the tests that must
build (a rejected pull falls back to building) index again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
import zstandard
from moto.server import ThreadedMotoServer
from roslynmap.store import cache, objectstore
from roslynmap.store.objectstore import S3Root
from roslynmap.store.schema import SCHEMA_VERSION

from tests.conftest import roslynmap
from tests.test_cache import call, seeded_home, sha256, shop_baseline

BUCKET = "roslynmap-cache"
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1"}


@pytest.fixture(scope="module")
def s3_env() -> Iterator[dict[str, str]]:
    """A moto S3 server on a free local port with one bucket; the environment that points roslynmap at it."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    env = {**CREDENTIALS, objectstore.ENDPOINT_ENV: f"http://{host}:{port}", "ROSLYNMAP_CACHE_DIR": ""}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # in-process calls (cache.pull / publish) use the same server
    objectstore._clients.clear()
    s3().create_bucket(Bucket=BUCKET)
    yield env
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    objectstore._clients.clear()
    server.stop()


def s3() -> Any:
    return boto3.client("s3", endpoint_url=os.environ[objectstore.ENDPOINT_ENV], **{
        "aws_access_key_id": "testing", "aws_secret_access_key": "testing", "region_name": "us-east-1"})


def keys(prefix: str) -> list[str]:
    listed = s3().list_objects_v2(Bucket=BUCKET, Prefix=prefix)
    return sorted(o["Key"] for o in listed.get("Contents", []))


def manifest_of(prefix: str, repo_id: str, commit: str) -> dict[str, Any]:
    body = s3().get_object(Bucket=BUCKET, Key=f"{prefix}/{repo_id}/{commit}/manifest.json")["Body"].read()
    out: dict[str, Any] = json.loads(body)
    return out


def push(shop: Path, home: Path, url: str, env: dict[str, str]) -> dict[str, Any]:
    done = roslynmap("index", str(shop), "--push", "--cache-dir", url, "--json",
                     env={**env, "ROSLYNMAP_HOME": str(home)})
    assert done.returncode == 0, done.stdout + done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def test_s3_publish_then_pull(shop: Path, home: Path, tmp_path: Path, s3_env: dict[str, str]) -> None:
    info, local = shop_baseline(shop, home)
    short, url = info.commit[:12], f"s3://{BUCKET}/team"
    entry = f"{url}/{info.repo_id}/{info.commit}"
    out = push(shop, seeded_home(tmp_path / "ci", info, local), url, s3_env)
    manifest = manifest_of("team", info.repo_id, info.commit)
    raw, packed = local.stat().st_size, manifest["compressed_size_bytes"]
    assert (out["source"], out["cache_dir"]) == ("local", url)
    assert out["push"] == {"status": "published", "pushed": True, "entry": entry, "sha256": sha256(local),
                           "size_bytes": raw,
                           "message": f"Published the baseline for {short} to {entry} ({raw / 1e6:.1f} MB, "
                                      f"{packed / 1e6:.1f} MB compressed)."}
    meta = cache.database_meta(local)
    assert {k: manifest[k] for k in ("format", "repo_id", "commit", "sha256", "size_bytes", "schema_version",
                                     "semantic_level", "compression")} == {
        "format": 1, "repo_id": info.repo_id, "commit": info.commit, "sha256": sha256(local), "size_bytes": raw,
        "schema_version": SCHEMA_VERSION, "semantic_level": "full", "compression": "zstd"}
    assert manifest["toolchain"]["roslyn_version"] == meta["roslyn_version"]
    assert cache.roslyn_release(meta["roslyn_version"]) == "5.12.0"  # the version the csproj pins
    assert keys(f"team/{info.repo_id}/{info.commit}/") == sorted(
        [f"team/{info.repo_id}/{info.commit}/manifest.json", f"team/{info.repo_id}/{info.commit}/{manifest['object']}"])
    assert manifest["object"].startswith(f"baseline-{sha256(local)[:16]}-") and packed < raw / 2

    # A second push of the same commit finds the entry and skips.
    again = push(shop, seeded_home(tmp_path / "ci2", info, local), url, s3_env)
    assert again["push"]["status"] == "exists"

    # A teammate: nothing local, the cache in ROSLYNMAP_CACHE_DIR, over MCP.
    fresh = tmp_path / "fresh"
    env = {**s3_env, "ROSLYNMAP_HOME": str(fresh), "ROSLYNMAP_CACHE_DIR": url}
    ensured = call("index_ensure_baseline", {}, shop, env)
    assert (ensured["data"]["source"], ensured["data"]["cache_dir"]) == ("cache", url), ensured
    pulled = fresh / "repos" / info.repo_id / "baselines" / f"{info.commit}.db"
    assert pulled.read_bytes() == local.read_bytes()
    found = call("symbols_search", {"query": "Repository", "kinds": ["Class", "Interface"]}, shop, env)
    assert found["ok"] and len(found["data"]["results"]) == 7
    listed = call("index_list_baselines", {}, shop, env)["data"]
    assert (listed["cache_dir"], [(b["commit"], b["in_cache"]) for b in listed["baselines"]]) == (
        url, [(info.commit, True)])

    # The CLI says how long the pull took.
    third = roslynmap("index", str(shop), "--cache-dir", url, "--json",
                      env={**s3_env, "ROSLYNMAP_HOME": str(tmp_path / "third")})
    summary = json.loads(third.stdout)
    assert (summary["source"], summary["built"]) == ("cache", False)
    assert isinstance(summary["pull_seconds"], float)
    assert f"roslynmap: pulled the baseline for {short} from {url} in " in third.stderr


def test_s3_two_concurrent_publishers_publish_once(shop: Path, home: Path, tmp_path: Path,
                                                   s3_env: dict[str, str]) -> None:
    info, local = shop_baseline(shop, home)
    url = f"s3://{BUCKET}/race"
    procs = [subprocess.Popen([sys.executable, "-m", "roslynmap.cli", "index", str(shop), "--push", "--cache-dir",
                               url, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, **s3_env,
                                   "ROSLYNMAP_HOME": str(seeded_home(tmp_path / f"ci{i}", info, local))})
             for i in range(2)]
    outs = [json.loads(p.communicate(timeout=600)[0]) for p in procs]
    assert sorted(o["push"]["status"] for o in outs) == ["exists", "published"]
    manifest = manifest_of("race", info.repo_id, info.commit)
    # The loser's object (if it got as far as uploading one) is gone: one manifest, the object it names.
    assert keys(f"race/{info.repo_id}/") == sorted([f"race/{info.repo_id}/{info.commit}/manifest.json",
                                                    f"race/{info.repo_id}/{info.commit}/{manifest['object']}"])
    dest = tmp_path / "pulled.db"
    assert cache.pull(objectstore.parse_s3_url(url), info.repo_id, info.commit, dest).status == "pulled"
    assert dest.read_bytes() == local.read_bytes()


def test_s3_publisher_that_loses_the_conditional_write_reports_exists(
        shop: Path, home: Path, tmp_path: Path, s3_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Both publishers saw no manifest; the second one's If-None-Match write fails and it cleans up."""
    info, local = shop_baseline(shop, home)
    root = S3Root(BUCKET, "lost")
    first = cache.publish(root, info.repo_id, info.commit, local)
    assert first.status == "published"
    monkeypatch.setattr(objectstore, "read_manifest", lambda *_args: None)  # the race: it looked too early
    second = cache.publish(root, info.repo_id, info.commit, local)
    entry = root.entry(info.repo_id, info.commit)
    assert (second.status, second.message) == (
        "exists", f"Another publisher published the baseline for {info.commit[:12]} to {entry} first; skipped.")
    monkeypatch.undo()
    assert manifest_of("lost", info.repo_id, info.commit) == first.manifest
    assert len(keys(f"lost/{info.repo_id}/")) == 2


def test_s3_corrupted_object_is_rejected_rebuilt_and_replaced(shop: Path, home: Path, tmp_path: Path,
                                                              s3_env: dict[str, str]) -> None:
    info, local = shop_baseline(shop, home)
    url, short = f"s3://{BUCKET}/bad", info.commit[:12]
    root = objectstore.parse_s3_url(url)
    assert cache.publish(root, info.repo_id, info.commit, local).status == "published"
    manifest = manifest_of("bad", info.repo_id, info.commit)
    key = f"bad/{info.repo_id}/{info.commit}/{manifest['object']}"

    # Not zstd at all, then valid zstd of other bytes: both rejected, the local store untouched.
    dest = tmp_path / "store" / "x.db"
    s3().put_object(Bucket=BUCKET, Key=key, Body=b"not a baseline")
    garbage = cache.pull(root, info.repo_id, info.commit, dest)
    assert garbage.status == "rejected" and garbage.message is not None
    assert garbage.message.startswith(f"cache entry for {short} is corrupt (the object is not valid zstd")
    tampered = bytearray(local.read_bytes())
    tampered[-100] ^= 0xFF
    s3().put_object(Bucket=BUCKET, Key=key, Body=zstandard.ZstdCompressor().compress(bytes(tampered)))
    flipped = cache.pull(root, info.repo_id, info.commit, dest)
    assert (flipped.status, flipped.message) == (
        "rejected", f"cache entry for {short} failed checksum (sha256 {sha256_bytes(bytes(tampered))[:16]}, "
                    f"manifest says {sha256(local)[:16]})")
    assert list(dest.parent.iterdir()) == []

    # A machine that pulls it builds instead, says why, and its push replaces the bad entry.
    fresh = tmp_path / "fresh"
    done = roslynmap("index", str(shop), "--push", "--cache-dir", url, "--json",
                     env={**s3_env, "ROSLYNMAP_HOME": str(fresh)})
    out = json.loads(done.stdout)
    assert (done.returncode, out["source"]) == (0, "built"), done.stderr
    assert out["warnings"] == [f"{flipped.message}; built locally."]
    assert out["push"]["status"] == "replaced"
    assert out["push"]["message"].endswith(f"(replaced an entry that failed verification: {flipped.message}).")
    replaced = manifest_of("bad", info.repo_id, info.commit)
    assert keys(f"bad/{info.repo_id}/") == sorted([f"bad/{info.repo_id}/{info.commit}/manifest.json",
                                                   f"bad/{info.repo_id}/{info.commit}/{replaced['object']}"])
    assert cache.pull(root, info.repo_id, info.commit, dest).status == "pulled"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_s3_baseline_of_another_roslyn_is_rejected(shop: Path, home: Path, tmp_path: Path,
                                                   s3_env: dict[str, str]) -> None:
    info, local = shop_baseline(shop, home)
    root = S3Root(BUCKET, "old-roslyn")
    published = cache.publish(root, info.repo_id, info.commit, local)
    assert published.manifest is not None
    toolchain = {**published.manifest["toolchain"], "roslyn_version": "4.14.0-3.25262.10"}
    old = {**published.manifest, "toolchain": toolchain}
    s3().put_object(Bucket=BUCKET, Key=f"old-roslyn/{info.repo_id}/{info.commit}/manifest.json",
                    Body=json.dumps(old).encode())
    pulled = cache.pull(root, info.repo_id, info.commit, tmp_path / "x.db")
    assert (pulled.status, pulled.message) == (
        "rejected", f"cache entry for {info.commit[:12]} was made by Roslyn 4.14.0-3.25262.10; this roslynmap uses "
                    "Roslyn 5.12.0")
    assert not (tmp_path / "x.db").exists()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_s3_unreachable_endpoint_falls_back_to_building(shop: Path, home: Path, tmp_path: Path,
                                                        s3_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    info, local = shop_baseline(shop, home)
    endpoint = f"http://127.0.0.1:{closed_port()}"
    # Listing asks the store once per baseline: after a failed connection it stops asking for a while.
    monkeypatch.setenv(objectstore.ENDPOINT_ENV, endpoint)
    root = S3Root(BUCKET, "team")
    assert cache.has_entry(root, info.repo_id, info.commit) is False
    started = time.perf_counter()
    assert cache.has_entry(root, info.repo_id, info.commit) is False
    assert time.perf_counter() - started < 0.01
    monkeypatch.undo()
    env = {**s3_env, objectstore.ENDPOINT_ENV: endpoint, "ROSLYNMAP_HOME": str(tmp_path / "fresh")}
    url = f"s3://{BUCKET}/team"
    done = roslynmap("index", str(shop), "--cache-dir", url, "--json", env=env)
    out = json.loads(done.stdout)
    assert (done.returncode, out["source"], out["semantic_level"]) == (0, "built", "full"), done.stderr
    assert out["warnings"] == [f"the S3 cache {url} is not reachable: cannot reach {endpoint} (Could not connect to "
                               f"the endpoint URL: \"{endpoint}/{BUCKET}/team/{info.repo_id}/{info.commit}/"
                               "manifest.json\"); built locally."]
    # Publishing to it fails before indexing, with the endpoint and a hint.
    pushed = roslynmap("index", str(shop), "--push", "--cache-dir", url, "--json", env=env)
    error = json.loads(pushed.stdout)["error"]
    assert pushed.returncode == 1
    assert error["message"] == (f"The S3 cache {url} is not usable: cannot reach {endpoint} (Could not connect to "
                                f"the endpoint URL: \"{endpoint}/{BUCKET}\").")
    assert "ROSLYNMAP_S3_ENDPOINT_URL" in error["hint"]
    del local


def test_s3_url_parsing_and_cache_commands(tmp_path: Path, s3_env: dict[str, str]) -> None:
    assert objectstore.parse_s3_url("s3://bucket/a/b/") == S3Root("bucket", "a/b")
    assert str(objectstore.parse_s3_url("S3://bucket")) == "s3://bucket"
    done = roslynmap("cache", "list", "--cache-dir", f"s3://{BUCKET}/team", env=s3_env)
    assert done.returncode == 1
    assert "bucket lifecycle rule" in done.stderr
    assert shutil.which("git")

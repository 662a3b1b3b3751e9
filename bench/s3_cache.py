"""Pull-and-open time of a ~50 MB baseline from an S3 API server (moto's server mode on 127.0.0.1).

Usage::

    python bench/s3_cache.py BASELINE.db [--runs 5] [--write]

BASELINE.db is a real baseline (the benchmark indexes `bench/generate.py --lines 170000` for ~50 MB).
The baseline is published once (zstd, conditional manifest write), then pulled into a fresh local store
`--runs` times: download, decompress and hash, size/sha256/schema/Roslyn checks, fsync, rename; then
opened as index_ensure_baseline does. `--write` puts the table into docs/benchmarks.md between the
`s3-cache` markers (bench/run.py leaves that block alone when it rewrites the rest).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from roslynmap.store import cache, objectstore  # noqa: E402
from roslynmap.store.reader import open_baseline, project_rows, read_meta  # noqa: E402

BEGIN, END = "<!-- s3-cache:begin -->", "<!-- s3-cache:end -->"


def measure(baseline: Path, runs: int) -> dict[str, Any]:
    import boto3
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    os.environ.update({"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench",
                       "AWS_DEFAULT_REGION": "us-east-1", objectstore.ENDPOINT_ENV: f"http://{host}:{port}"})
    try:
        boto3.client("s3", endpoint_url=f"http://{host}:{port}").create_bucket(Bucket="bench-cache")
        root = objectstore.parse_s3_url("s3://bench-cache/team")
        meta = cache.database_meta(baseline)
        started = time.perf_counter()
        published = cache.publish(root, meta["repo_id"], meta["commit"], baseline)
        publish_s = time.perf_counter() - started
        assert published.pushed and published.manifest is not None, published.message
        symbol_id = sqlite3.connect(baseline).execute(
            "SELECT symbol_id FROM symbols ORDER BY id DESC LIMIT 1").fetchone()[0]
        pulls, opens = [], []
        with tempfile.TemporaryDirectory(prefix="roslynmap-s3bench-") as temp:
            for run in range(runs):
                dest = Path(temp) / f"local-{run}" / f"{meta['commit']}.db"
                started = time.perf_counter()
                pulled = cache.pull(root, meta["repo_id"], meta["commit"], dest)
                pulled_at = time.perf_counter()
                assert pulled.status == "pulled", pulled.message
                conn = open_baseline(dest)
                read_meta(conn)
                project_rows(conn)
                assert conn.execute("SELECT id FROM symbols WHERE symbol_id = ?", (symbol_id,)).fetchone()
                opens.append(time.perf_counter() - pulled_at)
                pulls.append(pulled_at - started)
                conn.close()
                dest.unlink()
    finally:
        server.stop()
    totals = sorted(p + o for p, o in zip(pulls, opens, strict=True))
    counts = meta.get("counts") or {}
    return {"raw_mb": round(baseline.stat().st_size / 1e6, 1),
            "zstd_mb": round(published.manifest["compressed_size_bytes"] / 1e6, 1),
            "symbols": counts.get("symbols"), "refs": counts.get("references"), "runs": runs,
            "publish_s": round(publish_s, 2), "pull_s": round(statistics.median(pulls), 3),
            "open_ms": round(statistics.median(opens) * 1000, 1), "total_s": round(statistics.median(totals), 3),
            "total_max_s": round(totals[-1], 3)}


def section(r: dict[str, Any], label: str) -> str:
    ratio = r["raw_mb"] / r["zstd_mb"] if r["zstd_mb"] else 0.0
    return "\n".join([
        BEGIN, "", "## Shared cache on S3", "",
        f"The baseline of {label}, published once to an S3 API server on 127.0.0.1 (moto's server mode, "
        "`python bench/s3_cache.py`), then pulled into a fresh local store: download, zstd decompression "
        "and sha256 while streaming, size/schema/Roslyn checks, fsync, rename; then opened as "
        "index_ensure_baseline does. Loopback hides network transfer: from real object storage add the "
        f"compressed size over the link ({r['zstd_mb']} MB at 1 Gbit/s is about {r['zstd_mb'] * 8 / 1000:.2f} s).",
        "",
        "| baseline MB | zstd MB | ratio | symbols | references | publish s | runs | pull s (median) | "
        "open ms (median) | pull + open s (median) | pull + open s (max) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        f"| {r['raw_mb']} | {r['zstd_mb']} | {ratio:.1f} | {r['symbols']} | {r['refs']} | {r['publish_s']} | "
        f"{r['runs']} | {r['pull_s']} | {r['open_ms']} | {r['total_s']} | {r['total_max_s']} |",
        "", END])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("baseline", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--label", default="a generated solution")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    text = section(measure(args.baseline, args.runs), args.label)
    print(text)
    if args.write:
        doc = ROOT / "docs" / "benchmarks.md"
        current = doc.read_text(encoding="utf-8")
        if BEGIN in current and END in current:
            current = current[:current.index(BEGIN)] + text + current[current.index(END) + len(END):]
        elif "\n## Notes" in current:
            current = current.replace("\n## Notes", f"\n{text}\n\n## Notes", 1)
        else:
            current = current.rstrip() + "\n\n" + text + "\n"
        doc.write_text(current, encoding="utf-8")


if __name__ == "__main__":
    main()

"""Cost proportional to change (issue 16), on one real checkout:

- a full index of HEAD (fresh worker), its wall time and the worker's peak memory;
- a one-file commit changing a method body, then one adding a public member (a signature change), each
  indexed incrementally from the previous commit's baseline in a fresh worker, as CI would: wall time,
  documents re-extracted, ratio to the full index;
- the first overlay refresh after a background solution load (workspace/warm.py), against the first
  refresh of a fresh worker without one (which pays the load).

    python bench/incremental.py PRIVATE_COPY --body 'FILE|OLD|NEW' --signature 'FILE|OLD|NEW' [--solution S]

PRIVATE_COPY is committed to (branch roslynmap-bench-incremental): use a copy, never a shared checkout.
Not in CI (it needs a restored real repository); numbers go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

GIT_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "bench@example.com"}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout.strip()


def apply(repo: Path, spec: str) -> str:
    path, old, new = spec.split("|", 2)
    target = repo / path
    text = target.read_text(encoding="utf-8-sig")
    if old not in text:
        raise SystemExit(f"{old!r} is not in {path}")
    target.write_text(text.replace(old, new.replace("\\n", "\n"), 1), encoding="utf-8")
    return path


def main() -> None:
    from roslynmap.roslyn.client import WorkerClient
    from roslynmap.store.derive import comparable_tables
    from roslynmap.store.repo import inspect_repo
    from roslynmap.workspace import overlays, warm
    from roslynmap.workspace.baselines import ensure_baseline
    from run import machine, peak_rss_mb

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("checkout")
    parser.add_argument("--body", required=True, help="FILE|OLD|NEW: a method body change")
    parser.add_argument("--signature", required=True, help="FILE|OLD|NEW: a public signature change")
    parser.add_argument("--solution")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--home", help="ROSLYNMAP_HOME to use (default: a new temporary one)")
    parser.add_argument("--refresh-only", action="store_true",
                        help="only the first-refresh measurements, on HEAD's baseline in --home (a quiet re-run)")
    parser.add_argument("--verify", choices=("none", "body", "both"), default="none",
                        help="also index these derived commits in full (another ROSLYNMAP_HOME) and compare every "
                             "table (store/derive.comparable_tables)")
    args = parser.parse_args()
    repo_root = Path(args.checkout).resolve()
    os.environ["ROSLYNMAP_HOME"] = args.home or tempfile.mkdtemp(prefix="roslynmap-incr-")
    os.environ["ROSLYNMAP_WARM_LOAD"] = "1"
    out: dict[str, Any] = {"repository": repo_root.name, "machine": machine(), "runs": []}
    git(repo_root, "checkout", "-q", "-B", "roslynmap-bench-incremental")
    out["commit"] = git(repo_root, "rev-parse", "HEAD")

    def timed_index(label: str, full: bool) -> dict[str, Any]:
        client = WorkerClient()
        result = None
        try:
            started = time.perf_counter()
            result = ensure_baseline(repo_root, args.solution, worker=client, full=full)
            wall = round(time.perf_counter() - started, 1)
            rss = peak_rss_mb(client.pid)
        finally:
            client.close()
        row = {"label": label, "wall_s": wall, "index_seconds": result.meta.get("index_seconds"),
               "load_ms": result.meta.get("load_ms"), "derived": result.derived, "worker_peak_rss_mb": rss,
               "counts": result.meta.get("counts")}
        print(f"[incr] {label}: {wall} s {result.derived_note or ''} peak {rss} MB", flush=True)
        out["runs"].append(row)
        row["path"] = str(result.path)
        return row

    def verify(row: dict[str, Any]) -> None:
        """A full index of the same commit, elsewhere: the derived baseline must equal it table by table."""
        home = os.environ["ROSLYNMAP_HOME"]
        os.environ["ROSLYNMAP_HOME"] = tempfile.mkdtemp(prefix="roslynmap-incr-full-")
        client = WorkerClient()
        try:
            started = time.perf_counter()
            whole = ensure_baseline(repo_root, args.solution, worker=client, full=True)
            row["full_wall_s"] = round(time.perf_counter() - started, 1)
        finally:
            client.close()
            os.environ["ROSLYNMAP_HOME"] = home
        left, right = comparable_tables(Path(row["path"])), comparable_tables(whole.path)
        row["differing_tables"] = [name for name in right if left.get(name) != right[name]]
        print(f"[incr] {row['label']}: full index {row['full_wall_s']} s; differing tables: "
              f"{row['differing_tables'] or 'none'}", flush=True)

    full = timed_index("full index of HEAD", True) if not args.refresh_only else {}
    for label, spec in () if args.refresh_only else (("method body change", args.body),
                                                     ("public signature change", args.signature)):
        path = apply(repo_root, spec)
        git(repo_root, "commit", "-q", "-am", f"bench: {label} in {path}")
        row = timed_index(label, False)
        row["ratio_to_full"] = round(row["wall_s"] / full["wall_s"], 2)
        if args.verify == "both" or (args.verify == "body" and label == "method body change"):
            verify(row)

    # The first refresh after a background load, then (fresh worker, no warm-up) the first refresh that loads.
    repo = inspect_repo(repo_root)
    if "bench" in overlays.list_ids(repo.repo_id):  # a --home reused from an earlier run
        overlays.delete(repo, "bench")
    overlays.create(repo, "bench", None)
    body_file = args.body.split("|", 1)[0]
    for mode in ("warm", "cold"):
        client = WorkerClient()
        try:
            warm_s = None
            if mode == "warm":
                started = time.perf_counter()
                out["warm_start"] = warm.start(repo, worker=client)
                warm.wait(repo, 3600)
                warm_s = round(time.perf_counter() - started, 1)
            target = repo_root / body_file
            target.write_text(target.read_text(encoding="utf-8-sig") + f"\n// {mode} edit\n", encoding="utf-8")
            started = time.perf_counter()
            result = overlays.refresh(repo, "bench", worker=client)
            refresh_s = round(time.perf_counter() - started, 2)
            rss = peak_rss_mb(client.pid)
        finally:
            client.close()
        out[f"{mode}_refresh"] = {"background_load_s": warm_s, "refresh_s": refresh_s, "cold": result.cold,
                                  "load_seconds": result.load_seconds, "extracted": len(result.extracted),
                                  "rebound": len(result.rebound), "worker_peak_rss_mb": rss}
        print(f"[incr] first refresh ({mode}): {refresh_s} s (cold={result.cold}, background load {warm_s} s), "
              f"peak {rss} MB", flush=True)
    git(repo_root, "checkout", "-q", "--", ".")
    print(json.dumps(out, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
